import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import { alignDays, DAYS_IN_PRICED_MONTH, daysPrice, MAX_MONTHS, PAYMENT_MESSAGES, priceFor } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Pending } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { WholeNumberStepper } from '../../components/ui/stepper';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { messageText } from '../../i18n/errors';
import { amd, shortDate } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useColumnLabels } from '../../lib/use-column-labels';
import { useRequest } from '../../lib/use-request';
import { HISTORY_KEY, PRICE_KEY, payTeamWithIdram, type TeamSubscriptionDto, usePrice } from './api';
import { daysText, monthsText as monthsWords } from './order-text';
import { UpcomingPrice } from './upcoming-price';

addEnglish(english);

type Mode = 'months' | 'align';

/**
 * Pay for Team's one order: the selected agents, months for each or up to the manager's own end
 * date (by the day, priced pro rata), the lines and the total as the server will charge them
 * (the same price functions), and one Idram button.
 */
export function TeamCheckout({ agents, managerEnd }: { agents: TeamSubscriptionDto[]; managerEnd: string | null }) {
  const { t } = useTranslation();
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const priceRead = usePrice();
  const { data: price } = priceRead;
  const online = useOnline();
  const [mode, setMode] = useState<Mode>('months');
  const [monthsText, setMonthsText] = useState('1');
  const { loading, error, run } = useRequest();
  if (!price) return <Pending what={t('payment.priceWhat')} state={priceRead} />;
  const months = Number(monthsText);
  const monthsOk = Number.isInteger(months) && months >= 1 && months <= MAX_MONTHS;
  const payerEnd = managerEnd ? new Date(managerEnd).getTime() : null;
  const canAlign = payerEnd !== null && payerEnd > Date.now();
  const now = Date.now();
  const lines = agents.map((a) => {
    if (mode === 'months') return { agent: a, what: monthsWords(monthsOk ? months : 0), price: price.price * (monthsOk ? months : 0), ok: true };
    const days = payerEnd ? alignDays(payerEnd, a.subscriptionEndDate ? new Date(a.subscriptionEndDate).getTime() : null, now) : 0;
    return {
      agent: a,
      what: days > 0 ? daysText(days) : t('teamCheckout.alreadyRuns'),
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
    <Card title={t('teamCheckout.title')}>
      {agents.length === 0 ? (
        <p className="muted" data-testid="team-checkout-empty">
          {t('teamCheckout.empty')}
        </p>
      ) : (
        <div className="team-checkout" data-testid="team-checkout">
          <fieldset className="team-mode">
            <legend className="sr-only">{t('teamCheckout.howLong')}</legend>
            <label className="check-line">
              <input type="radio" name="team-mode" checked={mode === 'months'} onChange={() => setMode('months')} />
              {t('teamCheckout.monthsEach')}
            </label>
            <label className={`check-line${canAlign ? '' : ' muted'}`}>
              <input type="radio" name="team-mode" checked={mode === 'align'} disabled={!canAlign} onChange={() => setMode('align')} />
              {payerEnd ? t('teamCheckout.upToMineOn', { date: shortDate(new Date(payerEnd)) }) : t('teamCheckout.upToMine')}
            </label>
          </fieldset>
          {mode === 'months' ? (
            <div className="field">
              <label htmlFor="team-months">{t('payment.months')}</label>
              <WholeNumberStepper
                id="team-months"
                value={monthsText}
                onChange={setMonthsText}
                min={1}
                max={MAX_MONTHS}
                lessLabel={t('payment.monthLess')}
                moreLabel={t('payment.monthMore')}
              />
              <div className="field-hint">{t('teamCheckout.perMonthAgent', { price: amd(price.price) })}</div>
              <UpcomingPrice upcoming={price.upcoming} />
              {!monthsOk && (
                <ErrorText>
                  {months > MAX_MONTHS
                    ? messageText(PAYMENT_MESSAGES.maxMonths.text, PAYMENT_MESSAGES.maxMonths.code)
                    : messageText(PAYMENT_MESSAGES.months.text, PAYMENT_MESSAGES.months.code)}
                </ErrorText>
              )}
            </div>
          ) : (
            <p className="notice" data-testid="align-rule">
              {t('teamCheckout.alignRule', { price: amd(price.price), days: DAYS_IN_PRICED_MONTH })}
            </p>
          )}
          <table className="team-lines cards-narrow" ref={labelColumns} data-testid="team-lines">
            <thead>
              <tr>
                <th>{t('teamCheckout.colAgent')}</th>
                <th>{t('teamCheckout.colBuys')}</th>
                <th className="num">{t('teamCheckout.colPrice')}</th>
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
            <span className="stat-label">{t('teamCheckout.totalFor', { count: agents.length })}</span>
            <strong>{amd(total)}</strong>
            {price.discountPercent > 0 && (
              <span className="muted">
                <s>{amd(subtotal)}</s> −{price.discountPercent}% ({price.promoName})
              </span>
            )}
          </div>
          {blocked.length > 0 && <ErrorText>{t('teamCheckout.unselect')}</ErrorText>}
          <div>
            <Button className="btn-idram" onClick={pay} disabled={loading || !ready || !online}>
              {loading ? t('payment.redirecting') : t('teamCheckout.payTotal', { total: amd(total) })}
            </Button>
            {!online && <span className="muted"> {t('payment.offline')}</span>}
          </div>
          <ErrorText>{error}</ErrorText>
        </div>
      )}
    </Card>
  );
}
