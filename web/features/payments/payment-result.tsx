import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { Spinner } from '../../components/ui/spinner';
import { post } from '../../lib/api-client';
import { getSession } from '../../lib/session';
import { SUBSCRIPTION_KEY } from '../../lib/subscription';

export const SUPPORT_EMAIL = 'support@freightdesk.example';

/** /paymentResult/{status}: where Idram (and the card flow) send the browser back. */
export default function PaymentResult() {
  const { status } = useParams();
  const [params] = useSearchParams();
  const [arca, setArca] = useState<'waiting' | 'ok' | 'failed'>('waiting');
  const orderId = params.get('orderId');
  useEffect(() => {
    if (status === 'confirmed' && getSession()) void mutate(SUBSCRIPTION_KEY);
    if (status !== 'arca_result') return;
    let stop = false;
    (async () => {
      for (let i = 0; i < 20 && !stop; i++) {
        try {
          const res = await post<{ isPaymentConfirmed: boolean }>('/api/payment/get_arca_status', { orderId });
          if (res.isPaymentConfirmed) return setArca('ok');
        } catch {
          return setArca('failed');
        }
        await new Promise((r) => setTimeout(r, 1500));
      }
      if (!stop) setArca('failed');
    })();
    return () => {
      stop = true;
    };
  }, [status, orderId]);

  const received = status === 'confirmed' || (status === 'arca_result' && arca === 'ok');
  const failed = status === 'failed' || (status === 'arca_result' && arca === 'failed');
  return (
    <div className="center-card" data-testid="payment-result">
      {status === 'arca_result' && arca === 'waiting' ? (
        <>
          <h1>Checking your payment…</h1>
          <Spinner label="Checking your payment" />
        </>
      ) : received ? (
        <>
          <h1 className="success-text">Payment Received!</h1>
          <p>Thank you. Your subscription has been extended.</p>
        </>
      ) : failed ? (
        <>
          <h1 className="error-text">Payment Failed</h1>
          <p>
            Payment Failed. Please try again, and if the money was taken from your account, contact us by email at{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
          </p>
        </>
      ) : (
        <h1>Something went wrong</h1>
      )}
      <Link className="btn btn-primary" to={getSession() ? '/payment/' : '/'}>
        {getSession() ? 'Back to Payment' : 'Go to login'}
      </Link>
    </div>
  );
}
