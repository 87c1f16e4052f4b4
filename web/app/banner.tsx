import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { isStaff } from '../../worker/lib/permissions';
import { useSession } from '../lib/session';
import { daysLeftTo, useSubscription } from '../lib/subscription';

export const BANNER_DAYS = 7;

/** Hidden on the payment pages unless `force`. */
export function SubscriptionBanner({ force = false }: { force?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const { status } = useSubscription();
  const { pathname } = useLocation();
  if (!session || !status || isStaff(session.userType)) return null;
  if (!force && pathname.toLowerCase().startsWith('/payment')) return null;
  let text: string | null = null;
  if (!status.isSubscriptionActive) text = t('banner.expired');
  else {
    // the one days-left rule, on the calendar the screens write the end date on
    const n = daysLeftTo(status.subscriptionEndDate);
    if (n < BANNER_DAYS) text = n === 0 ? t('banner.today') : t('banner.daysLeft', { count: n });
  }
  if (!text) return null;
  return (
    <div className={`banner ${status.isSubscriptionActive ? 'banner-warn' : 'banner-expired'}`} role="status" data-testid="subscription-banner">
      <span>{text}</span>
      <Link to="/payment/" className="banner-link">
        {t('banner.payNow')}
      </Link>
    </div>
  );
}
