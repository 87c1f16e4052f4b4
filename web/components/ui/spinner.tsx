import { useText } from '../../i18n/startup';

export function Spinner({ label }: { label?: string }) {
  const { t } = useText();
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label ?? t('app.loading')}</span>
    </div>
  );
}
