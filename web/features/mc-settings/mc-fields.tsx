import { useId } from 'react';
import { PLACEHOLDER_NAMES, renderTemplate, SAMPLE_LOAD, TEMPLATE_PLACEHOLDERS, templateError } from '../../../worker/mc-settings/email-template.schema';
import { LINE_NUMBERS } from '../../../worker/mc-settings/mc-settings.schema';
import { useSession } from '../../lib/session';

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

/**
 * The e-mail as the extension will write it: the MC's subject and content filled with a sample load
 * (the renderer the extension uses), live as the user types. An unknown placeholder is named at
 * once; the server refuses to save it with the same message.
 */
export function TemplatePreview({ subject, content, mcName }: { subject: string; content: string; mcName: string }) {
  const session = useSession();
  const values = { ...SAMPLE_LOAD, mcName: mcName || 'Your MC', userName: session?.userName ?? 'Your name' };
  const problem = templateError(subject, 'subject') ?? templateError(content, 'content');
  if (!subject.trim() && !content.trim()) return null;
  return (
    <div className="template-preview" data-testid="template-preview">
      <div className="template-preview-head">
        <span className="label">Preview</span>
        <span className="field-hint">
          with a sample load: {SAMPLE_LOAD.origin} → {SAMPLE_LOAD.destination}, {SAMPLE_LOAD.pickupDate}
        </span>
      </div>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <p className="template-preview-subject">
        <strong>Subject:</strong> {renderTemplate(subject, values)}
      </p>
      <pre className="template-preview-body">{renderTemplate(content, values)}</pre>
    </div>
  );
}

/** The placeholders a template may use, for the hint under the template fields. */
export function PlaceholderHint() {
  return (
    <p className="field-hint placeholder-hint" data-testid="placeholder-hint">
      Placeholders:{' '}
      {PLACEHOLDER_NAMES.map((name, i) => (
        <span key={name} title={TEMPLATE_PLACEHOLDERS[name]}>
          {i > 0 && ', '}
          <code>{`{${name}}`}</code>
        </span>
      ))}
    </p>
  );
}
