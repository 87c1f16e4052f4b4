import { useState } from 'react';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { FAILED_MAILS_KEY, type FailedMailDto, resendMail, useFailedMails } from './api';
import './mail.css';

const KIND_LABELS: Record<FailedMailDto['kind'], string> = {
  verify: 'E-mail verification',
  reset: 'Password reset',
  email_changed: 'E-mail change notice',
  receipt: 'Receipt',
  reminder: 'Subscription reminder',
  digest: 'Team reminder digest',
};

/**
 * /failedMails (admin): the mails the provider refused for good, or that ran out of tries, with
 * their last error; Resend queues one again. A mail being retried is not here: only those the
 * queue gave up on (docs/decisions/0017-operations.md).
 */
export default function FailedMails() {
  const { data, error, isLoading, mutate: reload } = useFailedMails();
  const resend = useRequest();
  const [sending, setSending] = useState<string | null>(null);

  const onResend = async (mail: FailedMailDto) => {
    setSending(mail._id);
    const done = await resend.run(() => resendMail(mail._id), { success: (r) => `${r.message}: ${mail.subject} to ${mail.to}` });
    setSending(null);
    if (done) await mutate(FAILED_MAILS_KEY);
    else await reload();
  };

  return (
    <div className="page failed-mails">
      <div className="page-header">
        <h1>Failed Mails</h1>
      </div>
      <p className="muted">
        Mails the mail provider refused for good, or that were still refused after every retry (about four hours). Resend puts one back in the queue once the
        cause is fixed.
      </p>
      <Card
        title={
          data
            ? `${data.total} failed mail${data.total === 1 ? '' : 's'}${data.total > data.mails.length ? ` (the newest ${data.mails.length} shown)` : ''}`
            : 'Failed mails'
        }
      >
        {isLoading ? (
          <Spinner />
        ) : error || !data ? (
          <div className="failed-mails-error" role="alert">
            <p className="error-text">{error instanceof Error && error.message ? error.message : 'Something went wrong'}: the list could not be loaded.</p>
            <Button variant="secondary" className="btn-sm" onClick={() => reload()}>
              Try again
            </Button>
          </div>
        ) : data.mails.length === 0 ? (
          <p className="muted" data-testid="failed-mails-empty">
            No failed mails: every mail was delivered or is still being retried.
          </p>
        ) : (
          <ul className="failed-mail-list" data-testid="failed-mails">
            {data.mails.map((m) => (
              <li key={m._id} className="failed-mail" data-testid="failed-mail">
                <div className="failed-mail-head">
                  <span className="failed-mail-kind">{KIND_LABELS[m.kind] ?? m.kind}</span>
                  <span className="muted">
                    failed {m.failedAt ? shortDateTime(m.failedAt) : ''} after {m.attempts} tr{m.attempts === 1 ? 'y' : 'ies'}
                  </span>
                </div>
                <div className="failed-mail-subject">{m.subject}</div>
                <div className="failed-mail-to">
                  To <span className="failed-mail-address">{m.to}</span> · written {shortDateTime(m.createdAt)}
                </div>
                <div className="failed-mail-error">
                  <span className="sr-only">Last error: </span>
                  <code>{m.lastError ?? 'no error recorded'}</code>
                </div>
                <Button
                  className="btn-sm failed-mail-resend"
                  onClick={() => onResend(m)}
                  disabled={sending !== null}
                  aria-label={`Resend ${KIND_LABELS[m.kind] ?? m.kind} to ${m.to}`}
                >
                  {sending === m._id ? 'Resending…' : 'Resend'}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
