import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { DateField } from '../../components/ui/date-input';
import { ErrorText, Field } from '../../components/ui/field';
import { Pending } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { amd, shortDate } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { cancelPriceChange, PRICE_KEY, SCHEDULE_KEY, schedulePrice, usePriceChanges } from './api';

/** Admin payments: the monthly price in force, the scheduled changes (cancel one before it starts), and a new one from a day. */
addEnglish(english);

export function PriceScheduleCard() {
  const { t } = useTranslation();
  const read = usePriceChanges();
  const { data } = read;
  const [priceText, setPriceText] = useState('');
  const [day, setDay] = useState('');
  const add = useRequest();
  const cancel = useRequest();
  const refresh = () => Promise.all([mutate(SCHEDULE_KEY), mutate(PRICE_KEY)]);
  const submit = async () => {
    // the day starts at 00:00 UTC (docs/rules/payments.md#0121-scheduled-price)
    if (await add.run(() => schedulePrice(Number(priceText), day), { success: () => t('priceSchedule.scheduled'), silent: true })) {
      setPriceText('');
      setDay('');
      await refresh();
    }
  };
  if (!data) return <Pending what={t('priceSchedule.what')} state={read} />;
  return (
    <Card title={t('priceSchedule.title')}>
      <p data-testid="price-now">
        <strong>{amd(data.price)}</strong> {t('priceSchedule.perMonthNow')}
        {data.price !== data.basePrice ? ` ${t('priceSchedule.configured', { price: amd(data.basePrice) })}` : ''}.
      </p>
      {data.changes.length > 0 && (
        <ul className="price-changes" data-testid="price-changes">
          {data.changes.map((c) => (
            <li key={c._id}>
              {t('priceSchedule.fromDate', { date: shortDate(c.effectiveFrom) })} <strong>{amd(c.price)}</strong>{' '}
              {c.started ? <span className="muted">{t('priceSchedule.inForce')}</span> : null}
              {!c.started && (
                <Button
                  variant="link"
                  disabled={cancel.loading}
                  onClick={async () => {
                    if (await cancel.run(() => cancelPriceChange(c._id), { success: () => t('priceSchedule.cancelled') })) await refresh();
                  }}
                >
                  {t('priceSchedule.cancel')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        className="form-row"
        aria-label={t('priceSchedule.formLabel')}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field
          label={t('priceSchedule.newPrice')}
          inputMode="numeric"
          value={priceText}
          onChange={(e) => setPriceText(e.target.value.replace(/[^\d]/g, '').slice(0, 8))}
        />
        <DateField label={t('priceSchedule.from')} value={day} onChange={setDay} hint={t('priceSchedule.fromHint')} />
        <Button type="submit" variant="secondary" disabled={add.loading || !priceText || !day}>
          {t('priceSchedule.schedule')}
        </Button>
      </form>
      <ErrorText>{add.error}</ErrorText>
    </Card>
  );
}
