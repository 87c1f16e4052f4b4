import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyLanguage, currentLanguage, LANGUAGES, type Language } from '../../i18n';

/**
 * The language picker (login screen, Profile): each language named in itself. `onPicked` runs
 * after the screens switched (Profile saves the choice on the user).
 */
export function LanguageSelect({ picked = false, onPicked, className }: { picked?: boolean; onPicked?: (language: Language) => void; className?: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const value = (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : currentLanguage();
  return (
    <div className={`language-select ${className ?? ''}`}>
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        name="language"
        value={value}
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
