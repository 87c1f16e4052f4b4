import { useEffect } from 'react';
import { subscriptionDaysLeft } from '../../worker/lib/days-left';
import { api } from './api-client';
import { updateSession, useSession } from './session';
import { type Data, keyOf, useGet } from './use-api';

export type SubscriptionStatus = Data<typeof api.subscription.status.$get>;

export const SUBSCRIPTION_KEY = keyOf(api.subscription.status);

/** The caller's subscription, fresh from the server; keeps the stored session's flag in step. */
export function useSubscription() {
  const session = useSession();
  const { data, mutate } = useGet(session ? api.subscription.status : null, undefined, { revalidateOnFocus: true });
  useEffect(() => {
    if (data && session && data.isSubscriptionActive !== session.isSubscriptionActive) {
      updateSession({ isSubscriptionActive: data.isSubscriptionActive });
    }
  }, [data, session]);
  return { status: data, isActive: data?.isSubscriptionActive ?? session?.isSubscriptionActive ?? false, mutate };
}

/** The browser's own calendar: the one the screens write dates on (lib/format.ts). */
const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Days left to an end date, by the one rule the server uses (worker/lib/days-left.ts), on the
 * calendar the screen writes the end date on, so "3 days left" always sits beside a date 3 days on.
 */
export const daysLeftTo = (end: string | null | undefined, now = Date.now()) => subscriptionDaysLeft(end, now, localTimeZone());
