import { useText } from '../../i18n/startup';
import { STARTUP_ENGLISH } from '../../i18n/startup-english';
import { useOnline } from '../../lib/online';

/** On the login page before i18next loads, it says its English (docs/decisions/0024-login-bundle.md). */
export function OfflineBanner() {
  const online = useOnline();
  const { t } = useText();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {t('common.offline', { defaultValue: STARTUP_ENGLISH.offline })}
    </div>
  );
}
