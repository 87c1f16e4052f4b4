import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { mutate } from 'swr';
import { MAX_MONTHS, PAYMENT_MESSAGES, priceFor } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { Loaded, Pending } from '../../components/ui/request-state';
import { useOnline } from '../../lib/online';
import { WholeNumberStepper } from '../../components/ui/stepper';
import { Tabs } from '../../components/ui/tabs';
import { amd, shortDate } from '../../lib/format';
import { useSession } from '../../lib/session';
import { daysLeftText } from '../../../worker/lib/days-left';
import { daysLeftTo, SUBSCRIPTION_KEY, useSubscription } from '../../lib/subscription';
import { useRequest } from '../../lib/use-request';
import {
  checkPromoCode,
  HISTORY_KEY,
  PRICE_KEY,
  type PromoCheckDto,
  payWithIdram,
  type TeamSubscriptionDto,
  useHistory,
  usePrice,
  applyPromoCode,
  useTeamSubscriptions,
} from './api';
import { PaymentsTable } from './payment-history';
import { UpcomingPrice } from './upcoming-price';
import { TeamCheckout } from './team-checkout';
import './payments.css';

/** /payment: Current Subscription, promo code, New Payment (a manager: Pay for Me / Pay for Team), Payment History. */
export default function Payment() {
  const session = useSession();
  const historyRead = useHistory();
  const isManager = session?.userType === 'manager';
  return (
    <div className="page payment-page">
      <div className="page-header">
        <h1>Payment</h1>
      </div>
      <div className="grid-2">
        <CurrentSubscription />
        <PromoBox />
      </div>
      {isManager ? (
        <Tabs
          urlKey="pay"
          tabs={[
            { value: 'me', label: 'Pay for Me', content: <NewPayment /> },
            { value: 'team', label: 'Pay for Team', content: <PayForTeam managerId={session!.userId} /> },
          ]}
        />
      ) : (
        <NewPayment />
      )}
      <Loaded what="the payment history" state={historyRead}>
        {(history) => <PaymentsTable data={history} title="Payment History" testId="payment-history" urlKey="history" />}
      </Loaded>
    </div>
  );
}

/** Days left as a number, or 'Expires today' when the end is later today (the one rule, lib/subscription.ts). */
function daysLeftNumber(end: string | null) {
  const n = daysLeftTo(end);
  return n === 0 ? 'Expires today' : n;
}

function CurrentSubscription() {
  const { status } = useSubscription();
  return (
    <Card title="Current Subscription">
      {!status ? (
        <Spinner />
      ) : (
        <dl className="kv" data-testid="subscription-status">
          <dt>Status</dt>
          <dd>{status.isSubscriptionActive ? <span className="label-pill pill-ok">Active</span> : <span className="label-pill pill-bad">Expired</span>}</dd>
          {status.subscriptionEndDate ? (
            <>
              <dt>Days left</dt>
              <dd data-testid="days-left">{status.isSubscriptionActive ? daysLeftNumber(status.subscriptionEndDate) : 0}</dd>
              <dt>{status.isSubscriptionActive ? 'Ends on' : 'Ended on'}</dt>
              <dd data-testid="end-date">{shortDate(status.subscriptionEndDate)}</dd>
            </>
          ) : (
            <>
              <dt>Subscription</dt>
              <dd data-testid="end-date">No subscription yet</dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
}

const effectText = (p: Pick<PromoCheckDto, 'effectType' | 'effectValue'>) =>
  p.effectType === 'discountPercent'
    ? `${p.effectValue}% off your next payment`
    : `${p.effectValue} free month${p.effectValue === 1 ? '' : 's'} added to your subscription`;

function PromoBox() {
  const { data: price } = usePrice();
  const [name, setName] = useState('');
  const [found, setFound] = useState<PromoCheckDto | null>(null);
  const check = useRequest();
  const use = useRequest();
  const search = async (e: FormEvent) => {
    e.preventDefault();
    setFound(null);
    if (!name.trim()) return;
    const promo = await check.run(() => checkPromoCode(name.trim()), { silent: true });
    if (promo) setFound(promo);
  };
  const apply = async () => {
    if (!found) return;
    const res = await use.run(() => applyPromoCode(found.name), { success: (r) => r.message });
    if (res) {
      setFound(null);
      setName('');
      // a discount changes the totals; free months change the subscription
      await Promise.all([mutate(PRICE_KEY), mutate(SUBSCRIPTION_KEY)]);
    }
  };
  return (
    <Card title="Promo code">
      <form className="form-row" onSubmit={search}>
        <Field
          label="Promo code"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            check.clearError();
          }}
          placeholder="e.g. 7KQ2MZ9RTA"
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" disabled={check.loading || !name.trim()}>
          {check.loading ? 'Searching…' : 'Search'}
        </Button>
      </form>
      <ErrorText>{check.error}</ErrorText>
      {found && (
        <div className="promo-found" data-testid="promo-found">
          <div>
            <strong>{found.name}</strong>
            <div className="muted">{effectText(found)}</div>
          </div>
          <Button onClick={apply} disabled={use.loading}>
            Use promo code
          </Button>
        </div>
      )}
      {price && price.discountPercent > 0 && (
        <p className="notice promo-pending" data-testid="promo-pending">
          Promo code <strong>{price.promoName}</strong>: {price.discountPercent}% off your next payment.
        </p>
      )}
    </Card>
  );
}

/** Months counter, total and the payment methods; pays for `payee` (an agent) or for the caller. */
function NewPayment({ payee }: { payee?: TeamSubscriptionDto }) {
  const priceRead = usePrice();
  const { data: price } = priceRead;
  const online = useOnline();
  const [monthsText, setMonthsText] = useState('1');
  const { loading, error, run } = useRequest();
  const months = Number(monthsText);
  const monthsOk = Number.isInteger(months) && months >= 1 && months <= MAX_MONTHS;
  if (!price) return <Pending what="the price" state={priceRead} />;
  const full = price.price * (monthsOk ? months : 0);
  const total = priceFor(price.price, monthsOk ? months : 0, price.discountPercent);
  const id = `months-${payee?._id ?? 'me'}`;
  const pay = async () => {
    await run(() => payWithIdram(months, payee?._id ?? null), { silent: true });
    // a failed attempt is an order too: the history shows it; a discount may be spent meanwhile
    await Promise.all([mutate(HISTORY_KEY), mutate(PRICE_KEY)]);
  };
  const body = (
    <div className="new-payment" data-testid={payee ? 'new-payment-agent' : 'new-payment'}>
      <div className="new-payment-row">
        <div className="field">
          <label htmlFor={id}>Months to buy</label>
          <WholeNumberStepper
            id={id}
            value={monthsText}
            onChange={setMonthsText}
            min={1}
            max={MAX_MONTHS}
            lessLabel="One month less"
            moreLabel="One month more"
          />
          <div className="field-hint">{amd(price.price)} per month</div>
          <UpcomingPrice upcoming={price.upcoming} />
        </div>
        <div className="total" data-testid="payment-total">
          <span className="stat-label">Total</span>
          <strong>{amd(total)}</strong>
          {price.discountPercent > 0 && monthsOk && (
            <span className="muted">
              <s>{amd(full)}</s> −{price.discountPercent}% ({price.promoName})
            </span>
          )}
        </div>
      </div>
      {!monthsOk && <ErrorText>{months > MAX_MONTHS ? PAYMENT_MESSAGES.maxMonths : PAYMENT_MESSAGES.months}</ErrorText>}
      <div className="pay-options">
        <div className="pay-option">
          <Button className="btn-idram" onClick={pay} disabled={loading || !monthsOk || !online}>
            {loading ? 'Redirecting to Idram…' : 'Pay with Idram'}
          </Button>
          <span className="muted">{online ? 'Idram wallet or Idram-linked card' : 'You are offline: paying needs a connection.'}</span>
        </div>
        <div className="pay-option pay-option-disabled" aria-disabled="true">
          <Button variant="secondary" disabled>
            Pay by card (Visa / Mastercard)
          </Button>
          <span className="muted" data-testid="card-note">
            {PAYMENT_MESSAGES.arca}
          </span>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
    </div>
  );
  return payee ? body : <Card title="New Payment">{body}</Card>;
}

/** A copy of `set` with `id` in or out. */
function toggled(set: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

function PayForTeam({ managerId }: { managerId: string }) {
  const teamRead = useTeamSubscriptions(managerId);
  const { data } = teamRead;
  const { status } = useSubscription();
  const [payee, setPayee] = useState<TeamSubscriptionDto | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const verified = useMemo(() => (data ?? []).filter((u) => u.isEmailVerified), [data]);
  const allOn = verified.length > 0 && verified.every((u) => selected.has(u._id));
  const columns = useMemo<ColumnDef<TeamSubscriptionDto, any>[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        header: () => (
          <input
            type="checkbox"
            aria-label="Select every agent with a verified e-mail"
            checked={allOn}
            disabled={verified.length === 0}
            onChange={(e) => setSelected(e.target.checked ? new Set(verified.map((u) => u._id)) : new Set())}
          />
        ),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={`Select ${row.original.name}`}
            checked={selected.has(row.original._id)}
            disabled={!row.original.isEmailVerified}
            title={row.original.isEmailVerified ? undefined : PAYMENT_MESSAGES.notVerified}
            onChange={(e) => setSelected((prev) => toggled(prev, row.original._id, e.target.checked))}
          />
        ),
      },
      { accessorKey: 'name', header: 'Name' },
      { accessorKey: 'email', header: 'Email' },
      {
        id: 'subscription',
        header: 'Subscription',
        accessorFn: (u) => (u.isSubscriptionActive ? 'Active' : 'Expired'),
        cell: ({ row }) =>
          row.original.isSubscriptionActive ? <span className="label-pill pill-ok">Active</span> : <span className="label-pill pill-bad">Expired</span>,
      },
      {
        id: 'daysLeft',
        header: 'Days left',
        accessorFn: (u) => (u.isSubscriptionActive ? daysLeftTo(u.subscriptionEndDate) : 0),
        cell: ({ row }) => (row.original.isSubscriptionActive ? daysLeftNumber(row.original.subscriptionEndDate) : 0),
      },
      {
        accessorKey: 'subscriptionEndDate',
        header: 'Subscription End',
        cell: ({ getValue }) => (getValue() ? shortDate(getValue()) : 'No End Date'),
      },
      {
        id: 'action',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.isEmailVerified ? (
            <Button className="btn-sm btn-idram" onClick={() => setPayee(row.original)} aria-label={`Pay for ${row.original.name}`}>
              Pay
            </Button>
          ) : (
            <span className="muted">{PAYMENT_MESSAGES.notVerified}</span>
          ),
      },
    ],
    [allOn, selected, verified],
  );
  if (!data) return <Pending what="your team's subscriptions" state={teamRead} />;
  return (
    <>
      <DataTable data={data} columns={columns} emptyText="No agents in your team yet" title="Team subscriptions" testId="team-subscriptions" urlKey="team" />
      <div className="team-checkout-wrap">
        <TeamCheckout agents={verified.filter((u) => selected.has(u._id))} managerEnd={status?.subscriptionEndDate ?? null} />
      </div>
      <Modal open={payee !== null} onOpenChange={(open) => !open && setPayee(null)} title={payee ? `New Payment for ${payee.name}` : 'New Payment'} wide>
        {payee && (
          <>
            <p className="muted payee-line">
              {payee.email} · {payee.isSubscriptionActive ? daysLeftText(daysLeftTo(payee.subscriptionEndDate)) : 'Subscription expired'}
            </p>
            <NewPayment key={payee._id} payee={payee} />
          </>
        )}
      </Modal>
    </>
  );
}
