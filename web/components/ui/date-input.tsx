import { type KeyboardEvent, lazy, type ReactNode, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { typing } from '../../lib/format';
import { describedBy, FieldFrame } from './field';
import './calendar.css';

// radix Popover, react-day-picker and its languages load when a calendar is first opened
const CalendarPopover = lazy(() => import('./calendar-popover'));

type Typing = ReturnType<typeof typing>;

/** What the placeholder shows: the parts in the language's order, "дд.мм.гггг". */
function usePattern(typed: Typing) {
  const { t } = useTranslation();
  const part = { day: t('common.dateInput.dd'), month: t('common.dateInput.mm'), year: t('common.dateInput.yyyy') };
  return typed.order.map((p) => part[p]).join(typed.separator);
}

// What the person types stays as typed while it means the same value; a value from outside (a quick
// range, a reload) or another language writes the text anew.
function useTyped(value: string, show: (value: string) => string, read: (text: string) => string | null, language: string) {
  const [state, setState] = useState({ text: show(value), value, language });
  let current = state;
  if (value !== state.value || language !== state.language) {
    current = { text: show(value), value, language };
    setState(current);
  }
  const type = (text: string) => {
    const read_ = read(text);
    const next = read_ ?? '';
    setState({ text, value: next, language });
    return next;
  };
  return { text: current.text, type, tidy: () => setState((s) => ({ ...s, text: read(s.text) ? show(read(s.text)!) : s.text })) };
}

type DateInputProps = {
  id?: string;
  /** The day, "2027-01-22", or '' for none: what `<input type="date">` holds. */
  value: string;
  /** Called with the day typed or picked, or '' while the text is not a whole day. */
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  disabled?: boolean;
  /** A calendar beside the field (Contact History has its own range calendar). */
  calendar?: boolean;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

/** The browser's date input follows the browser's language, not the user's (docs/decisions/0178-no-english-left.md). */
export function DateInput({ id, value, onChange, min, max, disabled, calendar = true, onKeyDown, ...aria }: DateInputProps) {
  const { t, i18n } = useTranslation();
  const typed = typing();
  const pattern = usePattern(typed);
  const field = useTyped(value, typed.day, typed.parseDay, i18n.language);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="date-input">
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        className="date-input-text"
        placeholder={pattern}
        value={field.text}
        disabled={disabled}
        onChange={(e) => onChange(field.type(e.target.value))}
        onBlur={field.tidy}
        onKeyDown={onKeyDown}
        {...aria}
      />
      {calendar && (
        <button
          ref={button}
          type="button"
          className="btn btn-secondary date-input-pick"
          disabled={disabled}
          aria-label={t('common.dateInput.pick')}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M16 3v4M8 3v4M3 10h18" />
          </svg>
        </button>
      )}
      {open && (
        <Suspense fallback={null}>
          <CalendarPopover anchor={button} value={value} min={min} max={max} onPick={onChange} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

export function DateField({ label, hint, error, ...rest }: Omit<DateInputProps, 'id'> & { label: ReactNode; hint?: ReactNode; error?: string | null }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <DateInput id={id} {...rest} aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? true : undefined} />
    </FieldFrame>
  );
}

/** `value` is what `<input type="datetime-local">` holds, or '' while either half is missing. */
export function DateTimeField({
  id,
  label,
  hint,
  value,
  onChange,
  onKeyDown,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const { t, i18n } = useTranslation();
  const typed = typing();
  const [halves, setHalves] = useState(() => ({ day: value.slice(0, 10), time: value.slice(11, 16), value }));
  let current = halves;
  if (value !== halves.value) {
    current = { day: value.slice(0, 10), time: value.slice(11, 16), value };
    setHalves(current);
  }
  const time = useTyped(current.time, typed.time, typed.parseTime, i18n.language);
  const change = (next: { day: string; time: string }) => {
    const whole = next.day && next.time ? `${next.day}T${next.time}` : '';
    setHalves({ ...next, value: whole });
    onChange(whole);
  };
  return (
    <FieldFrame id={id} label={label} hint={hint}>
      <div className="date-time-input">
        <DateInput
          id={id}
          value={current.day}
          onChange={(day) => change({ day, time: current.time })}
          onKeyDown={onKeyDown}
          aria-describedby={describedBy(id, hint, null)}
        />
        <input
          type="text"
          inputMode="numeric"
          autoComplete="off"
          className="time-input-text"
          aria-label={t('common.dateInput.timeOf', { field: label })}
          placeholder={typed.hour12 ? t('common.dateInput.time12') : t('common.dateInput.time24')}
          value={time.text}
          onChange={(e) => change({ day: current.day, time: time.type(e.target.value) })}
          onBlur={time.tidy}
          onKeyDown={onKeyDown}
        />
      </div>
    </FieldFrame>
  );
}
