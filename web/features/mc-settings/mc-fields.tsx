import { useId } from 'react';
import { LINE_NUMBERS } from '../../../worker/mc-settings/mc-settings.schema';

/** Line buttons 1 to 6: one line per MC; a line another MC holds is unavailable. */
export function LinePicker(props: { value: number[]; takenBy: Map<number, string>; onPick: (line: number) => void; label: string; disabled?: boolean }) {
  return (
    <div className="line-picker" role="group" aria-label={props.label}>
      {LINE_NUMBERS.map((n) => {
        const selected = props.value.includes(n);
        const holder = props.takenBy.get(n);
        return (
          <button
            key={n}
            type="button"
            className={`line-btn${selected ? ' line-selected' : ''}`}
            aria-pressed={selected}
            aria-label={`Line ${n}`}
            title={holder ? `Line ${n} is used by ${holder}` : `Line ${n}`}
            disabled={props.disabled || (!!holder && !selected)}
            onClick={() => props.onPick(n)}
          >
            {n}
          </button>
        );
      })}
    </div>
  );
}

/** The e-mail template's text. */
export function TemplateArea({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="field template-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
