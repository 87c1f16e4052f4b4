import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-mail.json';
import { errorText } from '../../i18n/errors';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { FAILED_PAGE_SIZE, type FailedMailDto, resendMail, useFailedMailPages } from './api';
import './mail.css';

// this screen's English texts (its own chunk)
addEnglish(english);

/** Each kind of mail's name as a catalogue key. */
const KIND_LABELS: Record<FailedMailDto['kind'], string> = {
  verify: 'failedMails.kindVerify',
  reset: 'failedMails.kindReset',
  email_changed: 'failedMails.kindEmailChanged',
  receipt: 'failedMails.kindReceipt',
  reminder: 'failedMails.kindReminder',
  digest: 'failedMails.kindDigest',
  vetting: 'failedMails.kindVetting',
};

/**
 * /failedMails (admin): the mails the provider refused for good, or that ran out of tries, with
 * their last error; Resend queues one again. A mail being retried is not here: only those the
 * queue gave up on (docs/decisions/0017-operations.md).
 */
export default function FailedMails() {
  const { t } = useTranslation();
  const kindText = (kind: FailedMailDto['kind']) => (KIND_LABELS[kind] ? t(KIND_LABELS[kind]) : kind);
  const { data: pages, error, isLoading, isValidating, mutate: reload, size, setSize } = useFailedMailPages();
  const mails = pages?.flatMap((p) => p.items) ?? [];
  const last = pages?.[pages.length - 1];
  const total = last?.total ?? 0;
  const more = last?.next ? Math.min(FAILED_PAGE_SIZE, total - mails.length) : 0;
  // a page asked for and not in: still coming, or failed (said beside Load more, never as fewer mails)
  const pageMissing = pages !== undefined && pages.length < size;
  const resend = useRequest();
  const [sending, setSending] = useState<string | null>(null);

  const onResend = async (mail: FailedMailDto) => {
    setSending(mail._id);
    await resend.run(() => resendMail(mail._id), { success: () => t('failedMails.resent', { subject: mail.subject, to: mail.to }) });
    setSending(null);
    await reload();
  };

  return (
    <div className="page failed-mails">
      <div className="page-header">
        <h1>{t('failedMails.title')}</h1>
      </div>
      <p className="muted">{t('failedMails.intro')}</p>
      <Card
        title={
          pages
            ? `${t('failedMails.count', { count: total })}${total > mails.length ? ` ${t('failedMails.newestShown', { shown: mails.length })}` : ''}`
            : t('failedMails.cardTitle')
        }
      >
        {isLoading ? (
          <Spinner />
        ) : !pages ? (
          <div className="failed-mails-error" role="alert">
            <p className="error-text">{t('failedMails.loadFailed', { error: errorText(error) })}</p>
            <Button variant="secondary" className="btn-sm" onClick={() => reload()}>
              {t('failedMails.tryAgain')}
            </Button>
          </div>
        ) : mails.length === 0 ? (
          <p className="muted" data-testid="failed-mails-empty">
            {t('failedMails.empty')}
          </p>
        ) : (
          <>
            <ul className="failed-mail-list" data-testid="failed-mails">
              {mails.map((m) => (
                <li key={m._id} className="failed-mail" data-testid="failed-mail">
                  <div className="failed-mail-head">
                    <span className="failed-mail-kind">{kindText(m.kind)}</span>
                    <span className="muted">{t('failedMails.failedAfter', { date: m.failedAt ? shortDateTime(m.failedAt) : '', count: m.attempts })}</span>
                  </div>
                  <div className="failed-mail-subject">{m.subject}</div>
                  <div className="failed-mail-to">
                    {t('failedMails.to')} <span className="failed-mail-address">{m.to}</span> · {t('failedMails.written', { date: shortDateTime(m.createdAt) })}
                  </div>
                  <div className="failed-mail-error">
                    <span className="sr-only">{t('failedMails.lastError')} </span>
                    <code>{m.lastError ?? t('failedMails.noError')}</code>
                  </div>
                  <Button
                    className="btn-sm failed-mail-resend"
                    onClick={() => onResend(m)}
                    disabled={sending !== null}
                    aria-label={t('failedMails.resendLabel', { kind: kindText(m.kind), to: m.to })}
                  >
                    {sending === m._id ? t('failedMails.resending') : t('failedMails.resend')}
                  </Button>
                </li>
              ))}
            </ul>
            {pageMissing && error ? (
              <div className="failed-mails-error" role="alert">
                <p className="error-text">{t('failedMails.loadFailed', { error: errorText(error) })}</p>
                <Button variant="secondary" className="btn-sm" onClick={() => reload()}>
                  {t('failedMails.tryAgain')}
                </Button>
              </div>
            ) : (
              more > 0 && (
                <Button variant="secondary" className="btn-sm" onClick={() => setSize(size + 1)} disabled={pageMissing || isValidating}>
                  {t('failedMails.loadMore', { count: more })}
                </Button>
              )
            )}
          </>
        )}
      </Card>
    </div>
  );
}
