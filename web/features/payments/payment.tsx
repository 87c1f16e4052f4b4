import { type FormEvent, useState } from 'react';
import useSWR, { mutate as globalMutate } from 'swr';
import type { PromoDto } from '../../../worker/promo/promo.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import { fetcher, post } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { SUBSCRIPTION_KEY, useSubscription } from '../../lib/subscription';
import { useRequest } from '../../lib/use-request';
import { SubscriptionBanner } from '../../app/banner';
import { amd, useHistory, usePrice } from './api';
import { PaymentsTable } from './payment-history';

interface TeamMember {
  _id: string;
  name: string;
  email: string;
  isEmailVerified: boolean;
  isSubscriptionActive: boolean;
  subscriptionDaysLeft: number;
  subscriptionEndDate: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks for an order, polls its link until it is ready, then sends the browser to Idram. */
async function payWithIdram(months: number, userToBePaidId: string | null) {
  const { orderId } = await post<{ orderId: string }>('/api/payment/generateLink', { amount: months, userToBePaidId, paymentType: 'idram' });
  for (let i = 0; i < 30; i++) {
    const link = await post<{ isLinkGenerated: boolean; isLinkGenerationFailed: boolean; paymentURL: string | null }>('/api/payment/getPaymentLink', { orderId });
    if (link.isLinkGenerationFailed) throw new Error('Payment Failed, please try again');
    if (link.isLinkGenerated && link.paymentURL) {
      window.location.assign(link.paymentURL);
      return;
    }
    await sleep(1000);
  }
  throw new Error('Payment Failed, please try again');
}

/** /payment: status, promo code, New Payment, and for a manager Pay for Me / Pay for Team; history below. */
export default function Payment() {
  const session = useSession();
  const isManager = session?.userType === 'manager';
  const { data: history } = useHistory();
  const me = <NewPayment payeeId={null} />;
  return (
    <div className="page">
      <SubscriptionBanner force />
      <h1>Payment</h1>
      <div className="grid-2">
        <CurrentSubscription />
        <PromoBox />
      </div>
      {isManager ? (
        <Tabs
          tabs={[
            { value: 'me', label: 'Pay for Me', content: me },
            { value: 'team', label: 'Pay for Team', content: <PayForTeam managerId={session!.userId} /> },
          ]}
        />
      ) : (
        me
      )}
      {history ? <PaymentsTable data={history} title="Payment History" testId="payment-history" /> : <Spinner />}
    </div>
  );
}

function CurrentSubscription() {
  const { status } = useSubscription();
  if (!status) return <Card title="Current Subscription"><Spinner /></Card>;
  return (
    <Card title="Current Subscription">
      <p data-testid="subscription-status">
        {status.isSubscriptionActive ? (
          <>
            <span className="label-pill pill-ok">Active</span> {status.subscriptionDaysLeft} days left
            {status.subscriptionEndDate && <> · until {new Date(status.subscriptionEndDate).toLocaleDateString()}</>}
          </>
        ) : (
          <>
            <span className="label-pill pill-bad">Expired</span>
            {status.subscriptionEndDate && <> since {new Date(status.subscriptionEndDate).toLocaleDateString()}</>}
          </>
        )}
      </p>
    </Card>
  );
}

function PromoBox() {
  const [name, setName] = useState('');
  const [found, setFound] = useState<PromoDto | null>(null);
  const check = useRequest();
  const use = useRequest();
  const search = async (e: FormEvent) => {
    e.preventDefault();
    setFound(null);
    if (!name.trim()) return;
    const promo = await check.run(() => post<PromoDto>('/api/promocode/checkPromoCode', { name: name.trim() }));
    if (promo) setFound(promo);
  };
  const apply = async () => {
    if (!found) return;
    const res = await use.run(() => post<{ message: string }>('/api/promocode/usePromoCode', { promoName: found.name }), { success: (r) => r.message });
    if (res) {
      setFound(null);
      setName('');
      await Promise.all([globalMutate('/api/payment/monthlyprice'), globalMutate(SUBSCRIPTION_KEY)]);
    }
  };
  return (
    <Card title="Promo code">
      <form className="form-row" onSubmit={search}>
        <Field label="Promo code" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. 7KQ2MZ9RTA" />
        <Button type="submit" variant="secondary" disabled={check.loading}>
          Search
        </Button>
      </form>
      {found && (
        <div className="promo-found" data-testid="promo-found">
          <p>
            <strong>{found.name}</strong>: {found.effectType === 'discountPercent' ? `${found.effectValue}% off your next payment` : `${found.effectValue} free month${found.effectValue === 1 ? '' : 's'}`}
          </p>
          <Button onClick={apply} disabled={use.loading}>
            Use promo code
          </Button>
        </div>
      )}
    </Card>
  );
}

function NewPayment({ payeeId, payeeName }: { payeeId: string | null; payeeName?: string }) {
  const { data: price } = usePrice();
  const [months, setMonths] = useState(1);
  const { loading, error, run } = useRequest();
  if (!price) return <Spinner />;
  const full = price.price * months;
  const total = Math.max(0, Math.round((full * (100 - price.discountPercent)) / 100));
  const pay = () => run(() => payWithIdram(months, payeeId), { silent: true });
  return (
    <Card title={payeeName ? `New Payment for ${payeeName}` : 'New Payment'}>
      <div className="form">
        <div className="form-row">
          <div className="field">
            <label htmlFor={`months-${payeeId ?? 'me'}`}>Months</label>
            <div className="counter">
              <Button variant="secondary" aria-label="One month less" onClick={() => setMonths((m) => Math.max(1, m - 1))} disabled={months <= 1}>
                −
              </Button>
              <input
                id={`months-${payeeId ?? 'me'}`}
                type="number"
                min={1}
                max={36}
                value={months}
                onChange={(e) => setMonths(Math.min(36, Math.max(1, Math.floor(Number(e.target.value)) || 1)))}
              />
              <Button variant="secondary" aria-label="One month more" onClick={() => setMonths((m) => Math.min(36, m + 1))}>
                +
              </Button>
            </div>
          </div>
          <div className="total" data-testid="payment-total">
            <span className="stat-label">Total</span>
            <strong>{amd(total)}</strong>
            {price.discountPercent > 0 && (
              <span className="muted">
                {' '}
                <s>{amd(full)}</s> −{price.discountPercent}% ({price.promoName})
              </span>
            )}
          </div>
        </div>
        <p className="muted">{amd(price.price)} per month.</p>
        <div className="pay-options">
          <Button className="btn-idram" onClick={pay} disabled={loading}>
            {loading ? 'Redirecting to Idram…' : 'Pay with Idram'}
          </Button>
          <Button variant="secondary" disabled title="Card payment">
            Pay by card (Visa / Mastercard)
          </Button>
        </div>
        <p className="muted" data-testid="card-note">
          Visa Payment Temporary not supported. Please pay with Idram; card payment will return soon.
        </p>
        <ErrorText>{error}</ErrorText>
      </div>
    </Card>
  );
}

function PayForTeam({ managerId }: { managerId: string }) {
  const { data } = useSWR<TeamMember[]>(['/api/subscription/childUsersSubscriptions', managerId], ([path, parentId]: [string, string]) =>
    post<TeamMember[]>(path, { parentId, includeParent: false }),
  );
  const [payee, setPayee] = useState<TeamMember | null>(null);
  if (!data) return <Spinner />;
  return (
    <div className="form">
      <Card title="Team subscriptions">
        {data.length === 0 ? (
          <p className="muted">No agents in your team yet.</p>
        ) : (
          <table data-testid="team-subscriptions">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Email</th>
                <th>Subscription</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.map((m) => (
                <tr key={m._id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>{m.isSubscriptionActive ? `${m.subscriptionDaysLeft} days left` : 'Expired'}</td>
                  <td>
                    {m.isEmailVerified ? (
                      <Button variant="secondary" className="btn-sm" onClick={() => setPayee(m)} aria-label={`Pay for ${m.name}`}>
                        Pay
                      </Button>
                    ) : (
                      <span className="muted">Email is not verified</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {payee && <NewPayment key={payee._id} payeeId={payee._id} payeeName={payee.name} />}
    </div>
  );
}
