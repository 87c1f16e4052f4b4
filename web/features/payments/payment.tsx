import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import { MAX_MONTHS, PAYMENT_MESSAGES, priceFor } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { Loaded, Pending } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import { addEnglish, currentLanguage } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { messageText } from '../../i18n/errors';
import { amd, shortDate } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/session';
import { daysLeftTo, SUBSCRIPTION_KEY, useSubscription } from '../../lib/subscription';
import { useRequest } from '../../lib/use-request';
import {
  applyPromoCode,
  checkPromoCode,
  HISTORY_KEY,
  type PaymentDto,
  PRICE_KEY,
  type PromoCheckDto,
  payWithIdram,
  type TeamSubscriptionDto,
  useHistory,
  usePrice,
  useTeamSubscriptions,
} from './api';
import { MonthsError, MonthsField } from './months-field';
import { CancelOrderButton, PaymentsTable } from './payment-history';
import { TeamCheckout } from './team-checkout';
import './payments.css';
import { toggled } from '../../lib/sets';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

/** /payment: Current Subscription, promo code, New Payment (a manager: Pay for Me / Pay for Team), Payment History. */
export default function Payment() {
  const { t } = useTranslation();
  const session = useSession();
  const historyRead = useHistory();
  const isManager = session?.userType === 'manager';
  return (
    <div className="page payment-page">
      <div className="page-header">
        <h1>{t('payment.title')}</h1>
      </div>
      <div className="grid-2">
        <CurrentSubscription />
        <PromoBox />
      </div>
      {isManager ? (
        <Tabs
          urlKey="pay"
          tabs={[
            { value: 'me', label: t('payment.payForMe'), content: <NewPayment /> },
            { value: 'team', label: t('payment.payForTeam'), content: <PayForTeam managerId={session!.userId} /> },
          ]}
        />
      ) : (
        <NewPayment />
      )}
      <Loaded what={t('payment.historyWhat')} state={historyRead}>
        {(history) => <PaymentsTable data={history} title={t('payment.history')} testId="payment-history" urlKey="history" action={cancelAction} />}
      </Loaded>
    </div>
  );
}

/** Payment History's own button: Cancel on the payer's orders still waiting for payment. */
const cancelAction = (p: PaymentDto) => <CancelOrderButton payment={p} />;

/** Days left as a number, or 'Expires today' when the end is later today (the one rule, lib/subscription.ts). */
function daysLeftNumber(end: string | null, expiresToday: string) {
  const n = daysLeftTo(end);
  return n === 0 ? expiresToday : n;
}

function CurrentSubscription() {
  const { t } = useTranslation();
  const { status } = useSubscription();
  return (
    <Card title={t('payment.current')}>
      {!status ? (
        <Spinner />
      ) : (
        <dl className="kv" data-testid="subscription-status">
          <dt>{t('payment.status')}</dt>
          <dd>
            {status.isSubscriptionActive ? (
              <span className="label-pill pill-ok">{t('payment.active')}</span>
            ) : (
              <span className="label-pill pill-bad">{t('payment.expired')}</span>
            )}
          </dd>
          {status.subscriptionEndDate ? (
            <>
              <dt>{t('payment.daysLeft')}</dt>
              <dd data-testid="days-left">{status.isSubscriptionActive ? daysLeftNumber(status.subscriptionEndDate, t('payment.expiresToday')) : 0}</dd>
              <dt>{status.isSubscriptionActive ? t('payment.endsOn') : t('payment.endedOn')}</dt>
              <dd data-testid="end-date">{shortDate(status.subscriptionEndDate)}</dd>
            </>
          ) : (
            <>
              <dt>{t('payment.subscription')}</dt>
              <dd data-testid="end-date">{t('payment.noSubscription')}</dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
}

function PromoBox() {
  const { t } = useTranslation();
  const effectText = (p: Pick<PromoCheckDto, 'effectType' | 'effectValue'>) =>
    p.effectType === 'discountPercent' ? t('payment.promoDiscount', { percent: p.effectValue }) : t('payment.promoMonths', { count: p.effectValue });
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
    const res = await use.run(() => applyPromoCode(found.name), {
      // English: the server's own words; another language: the same facts in it
      success: (r) =>
        currentLanguage() === 'en'
          ? r.message
          : t('payment.promoApplied', {
              effect:
                found.effectType === 'discountPercent'
                  ? t('payment.promoDiscountNext', { percent: found.effectValue })
                  : t('payment.promoFree', { count: found.effectValue }),
            }),
    });
    if (res) {
      setFound(null);
      setName('');
      // a discount changes the totals; free months change the subscription
      await Promise.all([mutate(PRICE_KEY), mutate(SUBSCRIPTION_KEY)]);
    }
  };
  return (
    <Card title={t('payment.promo')}>
      <form className="form-row" onSubmit={search}>
        <Field
          label={t('payment.promo')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            check.clearError();
          }}
          placeholder={t('payment.promoExample', { code: '7KQ2MZ9RTA' })}
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" disabled={check.loading || !name.trim()}>
          {check.loading ? t('payment.searching') : t('payment.search')}
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
            {t('payment.usePromo')}
          </Button>
        </div>
      )}
      {price && price.discountPercent > 0 && (
        <p className="notice promo-pending" data-testid="promo-pending">
          {t('payment.promoPendingBefore')} <strong>{price.promoName}</strong>: {t('payment.promoDiscount', { percent: price.discountPercent })}.
        </p>
      )}
    </Card>
  );
}

/** Months counter, total and the payment methods; pays for `payee` (an agent) or for the caller. */
function NewPayment({ payee }: { payee?: TeamSubscriptionDto }) {
  const { t } = useTranslation();
  const priceRead = usePrice();
  const { data: price } = priceRead;
  const online = useOnline();
  const [monthsText, setMonthsText] = useState('1');
  const { loading, error, run } = useRequest();
  const months = Number(monthsText);
  const monthsOk = Number.isInteger(months) && months >= 1 && months <= MAX_MONTHS;
  if (!price) return <Pending what={t('payment.priceWhat')} state={priceRead} />;
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
        <MonthsField id={id} value={monthsText} onChange={setMonthsText} hint={t('payment.perMonth', { price: amd(price.price) })} upcoming={price.upcoming} />
        <div className="total" data-testid="payment-total">
          <span className="stat-label">{t('payment.total')}</span>
          <strong>{amd(total)}</strong>
          {price.discountPercent > 0 && monthsOk && (
            <span className="muted">
              <s>{amd(full)}</s> −{price.discountPercent}% ({price.promoName})
            </span>
          )}
        </div>
      </div>
      {!monthsOk && <MonthsError months={months} />}
      <div className="pay-options">
        <div className="pay-option">
          <Button className="btn-idram" onClick={pay} disabled={loading || !monthsOk || !online}>
            {loading ? t('payment.redirecting') : t('payment.payIdram')}
          </Button>
          <span className="muted">{online ? t('payment.idramNote') : t('payment.offline')}</span>
        </div>
        <div className="pay-option pay-option-disabled" aria-disabled="true">
          <Button variant="secondary" disabled>
            {t('payment.payCard')}
          </Button>
          <span className="muted" data-testid="card-note">
            {messageText(PAYMENT_MESSAGES.arca.text, PAYMENT_MESSAGES.arca.code)}
          </span>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
    </div>
  );
  return payee ? body : <Card title={t('payment.new')}>{body}</Card>;
}

/** "12 days left", "Ends today": the one days-left rule, in the user's language. */
const daysLeftPhrase = (t: (key: string, options?: Record<string, unknown>) => string, n: number) =>
  n === 0 ? t('payment.endsToday') : t('payment.daysLeftPhrase', { count: n });

function PayForTeam({ managerId }: { managerId: string }) {
  const { t } = useTranslation();
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
            aria-label={t('payment.selectAll')}
            checked={allOn}
            disabled={verified.length === 0}
            onChange={(e) => setSelected(e.target.checked ? new Set(verified.map((u) => u._id)) : new Set())}
          />
        ),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={t('payment.select', { name: row.original.name })}
            checked={selected.has(row.original._id)}
            disabled={!row.original.isEmailVerified}
            title={row.original.isEmailVerified ? undefined : messageText(PAYMENT_MESSAGES.notVerified.text, PAYMENT_MESSAGES.notVerified.code)}
            onChange={(e) => setSelected((prev) => toggled(prev, row.original._id, e.target.checked))}
          />
        ),
      },
      { accessorKey: 'name', header: t('payment.name') },
      { accessorKey: 'email', header: t('payment.email') },
      {
        id: 'subscription',
        header: t('payment.colStatus'),
        accessorFn: (u) => (u.isSubscriptionActive ? t('payment.active') : t('payment.expired')),
        cell: ({ row }) =>
          row.original.isSubscriptionActive ? (
            <span className="label-pill pill-ok">{t('payment.active')}</span>
          ) : (
            <span className="label-pill pill-bad">{t('payment.expired')}</span>
          ),
      },
      {
        id: 'daysLeft',
        header: t('payment.daysLeft'),
        accessorFn: (u) => (u.isSubscriptionActive ? daysLeftTo(u.subscriptionEndDate) : 0),
        cell: ({ row }) => (row.original.isSubscriptionActive ? daysLeftNumber(row.original.subscriptionEndDate, t('payment.expiresToday')) : 0),
      },
      {
        accessorKey: 'subscriptionEndDate',
        header: t('payment.colEnd'),
        cell: ({ getValue }) => (getValue() ? shortDate(getValue()) : t('payment.noEndDate')),
      },
      {
        id: 'action',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.isEmailVerified ? (
            <Button className="btn-sm btn-idram" onClick={() => setPayee(row.original)} aria-label={t('payment.payFor', { name: row.original.name })}>
              {t('payment.pay')}
            </Button>
          ) : (
            <span className="muted">{messageText(PAYMENT_MESSAGES.notVerified.text, PAYMENT_MESSAGES.notVerified.code)}</span>
          ),
      },
    ],
    [allOn, selected, verified, t],
  );
  if (!data) return <Pending what={t('payment.teamWhat')} state={teamRead} />;
  return (
    <>
      <DataTable data={data} columns={columns} emptyText={t('payment.noAgents')} title={t('payment.teamTitle')} testId="team-subscriptions" urlKey="team" />
      <div className="team-checkout-wrap">
        <TeamCheckout agents={verified.filter((u) => selected.has(u._id))} managerEnd={status?.subscriptionEndDate ?? null} />
      </div>
      <Modal
        open={payee !== null}
        onOpenChange={(open) => !open && setPayee(null)}
        title={payee ? t('payment.newFor', { name: payee.name }) : t('payment.new')}
        wide
      >
        {payee && (
          <>
            <p className="muted payee-line">
              {payee.email} · {payee.isSubscriptionActive ? daysLeftPhrase(t, daysLeftTo(payee.subscriptionEndDate)) : t('payment.subscriptionExpired')}
            </p>
            <NewPayment key={payee._id} payee={payee} />
          </>
        )}
      </Modal>
    </>
  );
}
