import { Button } from './button';

/**
 * Digits only (rule 0137), so what it shows is what is sent: "1.5" never reads as 15. `value` is the
 * text (empty while retyped); leaving the field empty or too small gives `min`.
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
