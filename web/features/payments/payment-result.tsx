import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { ORDER_TTL_MS } from '../../../worker/payments/payments.schema';
import { Spinner } from '../../components/ui/spinner';
import { getSession } from '../../lib/session';
import { SUBSCRIPTION_KEY } from '../../lib/subscription';
import { arcaStatus, HISTORY_KEY, PRICE_KEY, refreshSubscription, TEAM_KEY } from './api';
import './payments.css';

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
          <h1>Checking your payment…</h1>
          <Spinner label="Checking your payment" />
        </>
      ) : received ? (
        <>
          <div className="result-icon result-ok" aria-hidden="true">
            ✓
          </div>
          <h1 className="success-text">Payment Received!</h1>
          <p>Thank you. The subscription has been extended.</p>
        </>
      ) : closed ? (
        <>
          <div className="result-icon result-bad" aria-hidden="true">
            !
          </div>
          <h1 data-testid="closed-title">{closed === 'expired' ? 'Order Expired' : 'Order Canceled'}</h1>
          <p data-testid="closed-text">
            {closed === 'expired'
              ? `This order was not paid within ${ORDER_TTL_MINUTES} minutes of being made, so Idram no longer accepts it.`
              : 'This order was canceled, so Idram no longer accepts it.'}{' '}
            Nothing was charged for it. Start a new payment from the Payment screen.
          </p>
        </>
      ) : failed ? (
        <>
          <div className="result-icon result-bad" aria-hidden="true">
            !
          </div>
          <h1 className="error-text">Payment Failed</h1>
          <p data-testid="failed-text">
            Payment Failed. Please try again, and if money was taken from your account without the subscription being extended, contact us by email at{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
          </p>
        </>
      ) : (
        <h1>Something went wrong</h1>
      )}
      <Link className="btn btn-primary" to={signedIn ? '/payment/' : '/'}>
        {signedIn ? 'Back to Payment' : 'Go to login'}
      </Link>
    </div>
  );
}
