import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { verifyEmail } from './api';

/** `/emailVerify/{hash}`: shows the server's message from verifying the e-mail. */
export default function EmailVerify() {
  const { hash = '' } = useParams();
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    verifyEmail(hash)
      .then((r) => setMessage({ text: r.message, ok: true }))
      .catch((err: Error) => setMessage({ text: err.message || 'Something went wrong', ok: false }));
  }, [hash]);
  return (
    <div className="center-card">
      <h1>E-mail verification</h1>
      {message ? <p className={message.ok ? 'success-text' : 'error-text'}>{message.text}</p> : <Spinner />}
      <Link to="/">Go to the app</Link>
    </div>
  );
}
