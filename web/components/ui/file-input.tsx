import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A labelled file picker whose words are the catalogue's: the browser's own file input says
 * "Choose File" and "No file chosen" in the browser's language, to the eye and to screen readers
 * (docs/decisions/0178-no-english-left.md). The native input stays, hidden, for the picker itself.
 */
export function FileInput({ label, accept, onChange }: { label: string; accept?: string; onChange: (e: ChangeEvent<HTMLInputElement>) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  return (
    <div className="field">
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <div className="file-input">
        <button
          id={id}
          type="button"
          className="btn btn-secondary"
          aria-labelledby={`${id}-label ${id}-choose`}
          aria-describedby={`${id}-chosen`}
          onClick={() => input.current?.click()}
        >
          <span id={`${id}-choose`}>{t('common.file.choose')}</span>
        </button>
        <span id={`${id}-chosen`} className="muted">
          {name ?? t('common.file.none')}
        </span>
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          onChange={(e) => {
            setName(e.target.files?.[0]?.name ?? null);
            onChange(e);
          }}
        />
      </div>
    </div>
  );
}
