import { useState } from 'react';
import { mutate } from 'swr';
import { alignDays, DAYS_IN_PRICED_MONTH, daysPrice, MAX_MONTHS, PAYMENT_MESSAGES, priceFor } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Pending } from '../../components/ui/request-state';
import { useOnline } from '../../lib/online';
import { WholeNumberStepper } from '../../components/ui/stepper';
import { amd, shortDate } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { HISTORY_KEY, PRICE_KEY, payTeamWithIdram, type TeamSubscriptionDto, usePrice } from './api';
import { UpcomingPrice } from './upcoming-price';
import { useColumnLabels } from '../../lib/use-column-labels';

type Mode = 'months' | 'align';

/**
 * Pay for Team's one order: the selected agents, months for each or up to the manager's own end
 * date (by the day, priced pro rata), the lines and the total as the server will charge them
 * (the same price functions), and one Idram button.
 */
export function TeamCheckout({ agents, managerEnd }: { agents: TeamSubscriptionDto[]; managerEnd: string | null }) {
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const priceRead = usePrice();
  const { data: price } = priceRead;
  const online = useOnline();
  const [mode, setMode] = useState<Mode>('months');
  const [monthsText, setMonthsText] = useState('1');
  const { loading, error, run } = useRequest();
  if (!price) return <Pending what="the price" state={priceRead} />;
  const months = Number(monthsText);
  const monthsOk = Number.isInteger(months) && months >= 1 && months <= MAX_MONTHS;
  const payerEnd = managerEnd ? new Date(managerEnd).getTime() : null;
  const canAlign = payerEnd !== null && payerEnd > Date.now();
  const now = Date.now();
  const lines = agents.map((a) => {
    if (mode === 'months')
      return { agent: a, what: `${monthsOk ? months : 0} month${months === 1 ? '' : 's'}`, price: price.price * (monthsOk ? months : 0), ok: true };
    const days = payerEnd ? alignDays(payerEnd, a.subscriptionEndDate ? new Date(a.subscriptionEndDate).getTime() : null, now) : 0;
    return {
      agent: a,
      what: days > 0 ? `${days} day${days === 1 ? '' : 's'}` : 'already runs until your end date',
      price: daysPrice(price.price, days),
      ok: days > 0,
    };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.price, 0);
  const total = priceFor(subtotal, 1, price.discountPercent);
  const blocked = lines.filter((l) => !l.ok);
  const ready = agents.length > 0 && blocked.length === 0 && (mode === 'align' ? canAlign : monthsOk);
  const pay = async () => {
    await run(
      () =>
        payTeamWithIdram(
          agents.map((a) => a._id),
          mode === 'align' ? { align: true } : { months },
        ),
      { silent: true },
    );
    await Promise.all([mutate(HISTORY_KEY), mutate(PRICE_KEY)]);
  };
  return (
    <Card title="Pay for several agents in one order">
      {agents.length === 0 ? (
        <p className="muted" data-testid="team-checkout-empty">
          Select agents in the table above (agents with a verified e-mail) to pay for them in one order.
        </p>
      ) : (
        <div className="team-checkout" data-testid="team-checkout">
          <fieldset className="team-mode">
            <legend className="sr-only">How long</legend>
            <label className="check-line">
              <input type="radio" name="team-mode" checked={mode === 'months'} onChange={() => setMode('months')} />
              Months for each agent
            </label>
            <label className={`check-line${canAlign ? '' : ' muted'}`}>
              <input type="radio" name="team-mode" checked={mode === 'align'} disabled={!canAlign} onChange={() => setMode('align')} />
              Up to my end date{payerEnd ? ` (${shortDate(new Date(payerEnd))})` : ''}
            </label>
          </fieldset>
          {mode === 'months' ? (
            <div className="field">
              <label htmlFor="team-months">Months to buy</label>
              <WholeNumberStepper
                id="team-months"
                value={monthsText}
                onChange={setMonthsText}
                min={1}
                max={MAX_MONTHS}
                lessLabel="One month less"
                moreLabel="One month more"
              />
              <div className="field-hint">{amd(price.price)} per month and agent</div>
              <UpcomingPrice upcoming={price.upcoming} />
              {!monthsOk && <ErrorText>{months > MAX_MONTHS ? PAYMENT_MESSAGES.maxMonths : PAYMENT_MESSAGES.months}</ErrorText>}
            </div>
          ) : (
            <p className="notice" data-testid="align-rule">
              Each agent is paid from its own end date (or today, if it has ended) up to yours, by the day: {amd(price.price)} ÷ {DAYS_IN_PRICED_MONTH} per day,
              rounded to whole AMD for each agent, and the days rounded up so nobody ends before you.
            </p>
          )}
          <table className="team-lines cards-narrow" ref={labelColumns} data-testid="team-lines">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Buys</th>
                <th className="num">Price</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.agent._id} className={l.ok ? '' : 'line-blocked'}>
                  <td>
                    {l.agent.name}
                    <div className="muted">{l.agent.email}</div>
                  </td>
                  <td>{l.what}</td>
                  <td className="num">{amd(l.price)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="total" data-testid="team-total">
            <span className="stat-label">
              Total for {agents.length} agent{agents.length === 1 ? '' : 's'}
            </span>
            <strong>{amd(total)}</strong>
            {price.discountPercent > 0 && (
              <span className="muted">
                <s>{amd(subtotal)}</s> −{price.discountPercent}% ({price.promoName})
              </span>
            )}
          </div>
          {blocked.length > 0 && <ErrorText>Unselect the agents who already run until your end date.</ErrorText>}
          <div>
            <Button className="btn-idram" onClick={pay} disabled={loading || !ready || !online}>
              {loading ? 'Redirecting to Idram…' : `Pay ${amd(total)} with Idram`}
            </Button>
            {!online && <span className="muted"> You are offline: paying needs a connection.</span>}
          </div>
          <ErrorText>{error}</ErrorText>
        </div>
      )}
    </Card>
  );
}
