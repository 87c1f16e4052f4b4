import { useState } from 'react';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Pending } from '../../components/ui/request-state';
import { amd, shortDate } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { cancelPriceChange, PRICE_KEY, SCHEDULE_KEY, schedulePrice, usePriceChanges } from './api';

/** Admin payments: the monthly price in force, the scheduled changes (cancel one before it starts), and a new one from a day. */
export function PriceScheduleCard() {
  const read = usePriceChanges();
  const { data } = read;
  const [priceText, setPriceText] = useState('');
  const [day, setDay] = useState('');
  const add = useRequest();
  const cancel = useRequest();
  const refresh = () => Promise.all([mutate(SCHEDULE_KEY), mutate(PRICE_KEY)]);
  const submit = async () => {
    // the day starts at 00:00 UTC (docs/decisions/0121-scheduled-price.md)
    if (await add.run(() => schedulePrice(Number(priceText), day), { success: (r) => r.message, silent: true })) {
      setPriceText('');
      setDay('');
      await refresh();
    }
  };
  if (!data) return <Pending what="the price schedule" state={read} />;
  return (
    <Card title="Monthly price">
      <p data-testid="price-now">
        <strong>{amd(data.price)}</strong> per month now{data.price !== data.basePrice ? ` (configured: ${amd(data.basePrice)})` : ''}.
      </p>
      {data.changes.length > 0 && (
        <ul className="price-changes" data-testid="price-changes">
          {data.changes.map((c) => (
            <li key={c._id}>
              From {shortDate(c.effectiveFrom)}: <strong>{amd(c.price)}</strong> {c.started ? <span className="muted">(in force)</span> : null}
              {!c.started && (
                <Button
                  variant="link"
                  disabled={cancel.loading}
                  onClick={async () => {
                    if (await cancel.run(() => cancelPriceChange(c._id), { success: (r) => r.message })) await refresh();
                  }}
                >
                  Cancel
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        className="form-row"
        aria-label="Schedule a price change"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label="New price (AMD)" inputMode="numeric" value={priceText} onChange={(e) => setPriceText(e.target.value.replace(/[^\d]/g, '').slice(0, 8))} />
        <Field label="From" type="date" value={day} onChange={(e) => setDay(e.target.value)} hint="Starts at 00:00 UTC that day" />
        <Button type="submit" variant="secondary" disabled={add.loading || !priceText || !day}>
          Schedule
        </Button>
      </form>
      <ErrorText>{add.error}</ErrorText>
    </Card>
  );
}
