import { Button } from './button';

/**
 * A whole-number stepper (rule 0137): − and + buttons and an input that takes digits only,
 * so what it shows is what is sent: "1.5" can never read as 15, "-3" cannot be typed, a pasted
 * "2 months" is refused whole. `value` is the text (empty while a person retypes it); past `max`
 * it shows `max`; on leaving the field an empty or too small value becomes `min`.
 */
export function WholeNumberStepper(props: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  min: number;
  max: number;
  lessLabel: string;
  moreLabel: string;
}) {
  const { min, max } = props;
  const n = Number(props.value);
  const ok = props.value !== '' && Number.isInteger(n) && n >= min && n <= max;
  const set = (next: number) => props.onChange(String(Math.min(max, Math.max(min, next))));
  return (
    <div className="counter">
      <Button variant="secondary" aria-label={props.lessLabel} onClick={() => set((ok ? n : min) - 1)} disabled={!ok || n <= min}>
        −
      </Button>
      <input
        id={props.id}
        inputMode="numeric"
        pattern="[0-9]*"
        value={props.value}
        onChange={(e) => {
          const text = e.target.value;
          // anything but digits is refused whole: the field keeps what it showed
          if (!/^\d*$/.test(text)) return;
          const trimmed = text.replace(/^0+(?=\d)/, '');
          props.onChange(trimmed !== '' && Number(trimmed) > max ? String(max) : trimmed);
        }}
        onBlur={() => {
          if (!ok) set(n || min);
        }}
        aria-invalid={!ok}
      />
      <Button variant="secondary" aria-label={props.moreLabel} onClick={() => set((ok ? n : min - 1) + 1)} disabled={ok && n >= max}>
        +
      </Button>
    </div>
  );
}
