import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PLACEHOLDER_NAMES, type PlaceholderName, renderTemplate, SAMPLE_LOAD, unknownPlaceholders } from '../../../worker/mc-settings/email-template.schema';
import { LINE_NUMBERS } from '../../../worker/mc-settings/mc-settings.schema';
import { useSession } from '../../lib/session';
import { templateProblem } from './messages';

/** Line buttons 1 to 6: one line per MC; a line another MC holds is unavailable. */
export function LinePicker(props: { value: number[]; takenBy: Map<number, string>; onPick: (line: number) => void; label: string; disabled?: boolean }) {
  const { t } = useTranslation();
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
            aria-label={t('mcFields.line', { line: n })}
            title={holder ? t('mcFields.lineUsedBy', { line: n, holder }) : t('mcFields.line', { line: n })}
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
  const { t } = useTranslation();
  const session = useSession();
  const values = { ...SAMPLE_LOAD, mcName: mcName || t('mcFields.yourMc'), userName: session?.userName ?? t('mcFields.yourName') };
  // the save's refusal (templateError's), said in the user's language
  const unknownInSubject = unknownPlaceholders(subject);
  const unknownInContent = unknownPlaceholders(content);
  const problem = unknownInSubject.length
    ? templateProblem(t, unknownInSubject, 'subject')
    : unknownInContent.length
      ? templateProblem(t, unknownInContent, 'content')
      : null;
  if (!subject.trim() && !content.trim()) return null;
  return (
    <div className="template-preview" data-testid="template-preview">
      <div className="template-preview-head">
        <span className="label">{t('mcFields.preview')}</span>
        <span className="field-hint">
          {t('mcFields.sample', { origin: SAMPLE_LOAD.origin, destination: SAMPLE_LOAD.destination, date: SAMPLE_LOAD.pickupDate })}
        </span>
      </div>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <p className="template-preview-subject">
        <strong>{t('mcFields.subject')}</strong> {renderTemplate(subject, values)}
      </p>
      <pre className="template-preview-body">{renderTemplate(content, values)}</pre>
    </div>
  );
}

/** What each placeholder becomes, as catalogue keys (TEMPLATE_PLACEHOLDERS' words). */
const PLACEHOLDER_TITLES: Record<PlaceholderName, `mcFields.placeholder.${PlaceholderName}`> = {
  origin: 'mcFields.placeholder.origin',
  destination: 'mcFields.placeholder.destination',
  pickupDate: 'mcFields.placeholder.pickupDate',
  broker: 'mcFields.placeholder.broker',
  rate: 'mcFields.placeholder.rate',
  reference: 'mcFields.placeholder.reference',
  mcName: 'mcFields.placeholder.mcName',
  userName: 'mcFields.placeholder.userName',
};

/** The placeholders a template may use, for the hint under the template fields. */
export function PlaceholderHint() {
  const { t } = useTranslation();
  return (
    <p className="field-hint placeholder-hint" data-testid="placeholder-hint">
      {t('mcFields.placeholders')}{' '}
      {PLACEHOLDER_NAMES.map((name, i) => (
        <span key={name} title={t(PLACEHOLDER_TITLES[name])}>
          {i > 0 && ', '}
          <code>{`{${name}}`}</code>
        </span>
      ))}
    </p>
  );
}
