import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { errorText, messageText } from '../../i18n/errors';
import { verifyEmail } from './api';

/** `/emailVerify/{hash}`: shows the server's message from verifying the e-mail. */
export default function EmailVerify() {
  const { t } = useTranslation();
  const { hash = '' } = useParams();
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    verifyEmail(hash)
      .then((r) => setMessage({ text: messageText(r.message, r.code), ok: true }))
      .catch((err: Error) => setMessage({ text: errorText(err), ok: false }));
  }, [hash]);
  return (
    <div className="center-card">
      <h1>{t('auth.verifyTitle')}</h1>
      {message ? <p className={message.ok ? 'success-text' : 'error-text'}>{message.text}</p> : <Spinner />}
      <Link to="/">{t('auth.goToApp')}</Link>
    </div>
  );
}
