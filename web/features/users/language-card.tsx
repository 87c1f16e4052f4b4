import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../components/ui/language-select';
import { Card } from '../../components/ui/section';
import { applyLanguage, currentLanguage, type Language } from '../../i18n';
import { useRequest } from '../../lib/use-request';
import { type UserDto, updateLanguage } from './api';

/**
 * Profile: the user's language (docs/decisions/0023-languages.md), saved on the user so mails,
 * reminders and Idram's page follow it. One's own choice switches the screens at once (and back
 * if the server refuses); the admin setting another user's language changes only that user's.
 */
export function LanguageCard({ user, isMe, onSaved }: { user: UserDto; isMe: boolean; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { run } = useRequest();
  // chosen in another browser since this one signed in: the screens follow the user's choice
  useEffect(() => {
    if (isMe && user.language !== currentLanguage()) void applyLanguage(user.language);
  }, [isMe, user.language]);
  // said in the language just chosen (i18n.t reads the language at the time of the answer)
  const save = async (language: Language) => {
    const previous = user.language;
    const res = await run(() => updateLanguage(user._id, language), { success: () => i18n.t('profile.languageSaved') });
    if (res) onSaved();
    else if (isMe) await applyLanguage(previous);
  };
  return (
    <Card title={t('profile.languageTitle')}>
      {isMe ? (
        <LanguageSelect onPicked={save} />
      ) : (
        <p>
          {t('profile.languageOf')}: {t(`language.${user.language}`)}
        </p>
      )}
      <p className="muted field-hint">{t('profile.languageHint')}</p>
    </Card>
  );
}
