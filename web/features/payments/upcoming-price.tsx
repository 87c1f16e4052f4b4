import { useTranslation } from 'react-i18next';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { amd, shortDate } from '../../lib/format';
import type { PriceInfoDto } from './api';

/** The next scheduled price, before it applies: "From Dec 1, 2026: 6,000 AMD per month". */
addEnglish(english);

export function UpcomingPrice({ upcoming }: { upcoming: PriceInfoDto['upcoming'] }) {
  const { t } = useTranslation();
  if (!upcoming) return null;
  return (
    <p className="field-hint price-upcoming" data-testid="price-upcoming">
      {t('upcomingPrice.from', { date: shortDate(upcoming.effectiveFrom), price: amd(upcoming.price) })}
    </p>
  );
}
