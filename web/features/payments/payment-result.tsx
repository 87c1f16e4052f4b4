import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { ORDER_TTL_MS } from '../../../worker/payments/payments.schema';
import { LanguageSelect } from '../../components/ui/language-select';
import { Spinner } from '../../components/ui/spinner';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { getSession } from '../../lib/session';
import { SUBSCRIPTION_KEY } from '../../lib/subscription';
import { arcaStatus, HISTORY_KEY, PRICE_KEY, refreshSubscription, TEAM_KEY } from './api';
import './payments.css';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

/** How long an order can be paid, as the result page says it. */
const ORDER_TTL_MINUTES = ORDER_TTL_MS / 60_000;

export const SUPPORT_EMAIL = 'support@freightdesk.example';
const ARCA_POLL_MS = 1500;
const ARCA_POLL_TRIES = 20;

/** After a payment: the subscription, the session's flag, the history and the team refresh. */
async function refreshAfterPayment() {
  if (!getSession()) return;
  try {
    const status = await refreshSubscription();
    await mutate(SUBSCRIPTION_KEY, status, { revalidate: false });
  } catch {
    // the screens read the status again when they open
  }
  await Promise.all([mutate(HISTORY_KEY), mutate(PRICE_KEY), mutate((key) => Array.isArray(key) && key[0] === TEAM_KEY)]);
}

/** /paymentResult/{status}: where Idram (and the card flow) send the browser back. */
export default function PaymentResult() {
  const { t } = useTranslation();
  const { status } = useParams();
  const [params] = useSearchParams();
  const orderId = params.get('orderId');
  const [arca, setArca] = useState<'waiting' | 'ok' | 'failed'>('waiting');

  useEffect(() => {
    if (status === 'confirmed') void refreshAfterPayment();
    if (status !== 'arca_result') return;
    let stopped = false;
    (async () => {
      if (!orderId) return setArca('failed');
      for (let i = 0; i < ARCA_POLL_TRIES && !stopped; i++) {
        try {
          const res = await arcaStatus(orderId);
          if (res.isPaymentConfirmed) {
            if (!stopped) setArca('ok');
            await refreshAfterPayment();
            return;
          }
        } catch {
          if (!stopped) setArca('failed');
          return;
        }
        await new Promise((r) => setTimeout(r, ARCA_POLL_MS));
      }
      if (!stopped) setArca('failed');
    })();
    return () => {
      stopped = true;
    };
  }, [status, orderId]);

  const signedIn = Boolean(getSession());
  const received = status === 'confirmed' || (status === 'arca_result' && arca === 'ok');
  const failed = status === 'failed' || (status === 'arca_result' && arca === 'failed');
  // the payment page of an order that can no longer be paid (docs/decisions/0020-order-expiry.md)
  const closed = status === 'expired' ? 'expired' : status === 'canceled' ? 'canceled' : null;
  return (
    <div className="center-card result-card" data-testid="payment-result">
      {status === 'arca_result' && arca === 'waiting' ? (
        <>
          <h1>{t('result.checking')}</h1>
          <Spinner label={t('result.checkingLabel')} />
        </>
      ) : received ? (
        <>
          <div className="result-icon result-ok" aria-hidden="true">
            ✓
          </div>
          <h1 className="success-text">{t('result.received')}</h1>
          <p>{t('result.thanks')}</p>
        </>
      ) : closed ? (
        <>
          <div className="result-icon result-bad" aria-hidden="true">
            !
          </div>
          <h1 data-testid="closed-title">{closed === 'expired' ? t('result.expired') : t('result.canceled')}</h1>
          <p data-testid="closed-text">
            {closed === 'expired' ? t('result.expiredText', { minutes: ORDER_TTL_MINUTES }) : t('result.canceledText')} {t('result.nothingCharged')}
          </p>
        </>
      ) : failed ? (
        <>
          <div className="result-icon result-bad" aria-hidden="true">
            !
          </div>
          <h1 className="error-text">{t('result.failed')}</h1>
          <p data-testid="failed-text">
            {t('result.failedText')} <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
            {t('result.failedEnd')}
          </p>
        </>
      ) : (
        <h1>{t('messages.somethingWrong')}</h1>
      )}
      {!signedIn && <LanguageSelect picked />}
      <Link className="btn btn-primary" to={signedIn ? '/payment/' : '/'}>
        {signedIn ? t('result.back') : t('result.login')}
      </Link>
    </div>
  );
}
