import { useId, useState } from 'react';
import { applyLanguage, type Language, useText } from '../../i18n/startup';

/** On an English login page i18next is not loaded yet: picking another language loads it (web/i18n/startup.ts). */
export function LanguageSelect({ picked = false, onPicked, className }: { picked?: boolean; onPicked?: (language: Language) => void; className?: string }) {
  const { t, language } = useText();
  const id = useId();
  const [busy, setBusy] = useState(false);
  return (
    <div className={`language-select ${className ?? ''}`}>
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        name="language"
        value={language}
        disabled={busy}
        onChange={async (e) => {
          const language = e.target.value as Language;
          setBusy(true);
          try {
            await applyLanguage(language, { picked });
            onPicked?.(language);
          } finally {
            setBusy(false);
          }
        }}
      >
        <option value="en" lang="en">
          {t('language.en')}
        </option>
        <option value="ru" lang="ru">
          {t('language.ru')}
        </option>
        <option value="hy" lang="hy">
          {t('language.hy')}
        </option>
      </select>
    </div>
  );
}
