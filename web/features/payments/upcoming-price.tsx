import { amd, shortDate } from '../../lib/format';
import type { PriceInfoDto } from './api';

/** The next scheduled price, before it applies: "From Dec 1, 2026: 6,000 AMD per month". */
export function UpcomingPrice({ upcoming }: { upcoming: PriceInfoDto['upcoming'] }) {
  if (!upcoming) return null;
  return (
    <p className="field-hint price-upcoming" data-testid="price-upcoming">
      From {shortDate(upcoming.effectiveFrom)}: {amd(upcoming.price)} per month
    </p>
  );
}
