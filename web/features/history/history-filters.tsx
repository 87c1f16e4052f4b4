import { Popover, Switch } from 'radix-ui';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstOfLastDays, MAX_HISTORY_DAYS } from '../../../worker/history/history.schema';
import { Button } from '../../components/ui/button';
import { Calendar } from '../../components/ui/calendar';
import { DateInput } from '../../components/ui/date-input';
import { RequestFailed } from '../../components/ui/request-state';
import { dayValue, parseDay, shortDate } from '../../lib/format';
import { type Range, startOfToday } from './use-contact-history';

/** Quick ranges by how many days they cover, today included: the same count as the 40-day rule. */
const PRESETS = [1, 7, 30, MAX_HISTORY_DAYS] as const;

/** From and To, a two-month calendar, and the quick ranges. */
export function DateRangeFields({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const { t } = useTranslation();
  const ids = { from: useId(), to: useId() };
  return (
    <>
      <div className="field date-field">
        <label htmlFor={ids.from}>{t('historyFilters.from')}</label>
        <DateInput
          id={ids.from}
          calendar={false}
          value={range.from ? dayValue(range.from) : ''}
          onChange={(day) => onChange({ ...range, from: parseDay(day) })}
        />
      </div>
      <div className="field date-field">
        <label htmlFor={ids.to}>{t('historyFilters.to')}</label>
        <DateInput id={ids.to} calendar={false} value={range.to ? dayValue(range.to) : ''} onChange={(day) => onChange({ ...range, to: parseDay(day) })} />
      </div>
      <CalendarButton range={range} onChange={onChange} />
      <div className="presets" role="group" aria-label={t('historyFilters.quickRanges')}>
        {PRESETS.map((n) => (
          <button key={n} type="button" className="btn btn-link" onClick={() => onChange({ from: firstOfLastDays(n, startOfToday()), to: startOfToday() })}>
            {n === 1 ? t('historyFilters.today') : t('historyFilters.lastDays', { count: n })}
          </button>
        ))}
      </div>
    </>
  );
}

function CalendarButton({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="secondary" className="calendar-button" aria-label={t('historyFilters.pickOnCalendar')}>
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M16 3v4M8 3v4M3 10h18" />
          </svg>
          {t('historyFilters.calendar')}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="calendar-popover" align="start" sideOffset={6}>
          <Calendar
            mode="range"
            numberOfMonths={2}
            selected={range.from ? { from: range.from, to: range.to } : undefined}
            onSelect={(r) => onChange({ from: r?.from, to: r?.to })}
            defaultMonth={range.to ? new Date(range.to.getFullYear(), range.to.getMonth() - 1, 1) : undefined}
          />
          <div className="calendar-footer">
            <span className="muted">{range.from && range.to ? `${shortDate(range.from)} – ${shortDate(range.to)}` : t('historyFilters.pickDays')}</span>
            <Button variant="primary" className="btn-sm" onClick={() => setOpen(false)}>
              {t('historyFilters.done')}
            </Button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** A director's or the admin's manager: whose team's contacts to load. A list that did not load says so, with Retry. */
export function ManagerSelect(props: {
  managers: { _id: string; name: string; email: string }[] | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const list = props.managers ?? [];
  if (props.error != null && !props.managers)
    return (
      <div className="field manager-field" role="group" aria-label={t('historyFilters.manager')}>
        <span className="label">{t('historyFilters.manager')}</span>
        <RequestFailed what={t('historyFilters.managersWhat')} error={props.error} onRetry={props.onRetry} />
      </div>
    );
  return (
    <div className="field manager-field">
      <label htmlFor={id}>{t('historyFilters.manager')}</label>
      <select id={id} value={props.value ?? ''} onChange={(e) => props.onChange(e.target.value || null)} disabled={!list.length}>
        {!list.length && <option value="">{props.isLoading ? t('historyFilters.loading') : t('historyFilters.noManagers')}</option>}
        {list.map((m) => (
          <option key={m._id} value={m._id}>
            {m.name} ({m.email})
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A checklist with an All box; `excluded` holds the unchecked ids, so new members start checked.
 * A list that did not load (`failure`) says so with Retry, never as empty.
 */
export function Checklist(props: {
  legend: string;
  allLabel: string;
  items: { id: string; label: string }[];
  excluded: Set<string>;
  onChange: (excluded: Set<string>) => void;
  emptyText: string;
  failure?: { what: string; error: unknown; onRetry: () => void } | null;
}) {
  const { items, excluded } = props;
  const allChecked = items.length > 0 && excluded.size === 0;
  const toggle = (id: string, checked: boolean) => {
    const next = new Set(excluded);
    if (checked) next.delete(id);
    else next.add(id);
    props.onChange(next);
  };
  return (
    <fieldset className="group-box history-group" aria-label={props.legend}>
      <legend>{props.legend}</legend>
      {props.failure && items.length === 0 ? (
        <RequestFailed what={props.failure.what} error={props.failure.error} onRetry={props.failure.onRetry} />
      ) : items.length === 0 ? (
        <span className="muted">{props.emptyText}</span>
      ) : (
        <>
          <label className="check-all">
            <input type="checkbox" checked={allChecked} onChange={(e) => props.onChange(e.target.checked ? new Set() : new Set(items.map((i) => i.id)))} />
            {props.allLabel}
          </label>
          <div className="history-checks">
            {items.map((item) => (
              <label key={item.id}>
                <input type="checkbox" checked={!excluded.has(item.id)} onChange={(e) => toggle(item.id, e.target.checked)} />
                {item.label}
              </label>
            ))}
          </div>
        </>
      )}
    </fieldset>
  );
}

export function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="toggle">
      <Switch.Root id={id} className="switch" checked={checked} onCheckedChange={onChange}>
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
