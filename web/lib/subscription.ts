import { useEffect } from 'react';
import useSWR from 'swr';
import { fetcher } from './api-client';
import { useSession, updateSession } from './session';

export interface SubscriptionStatus {
  isSubscriptionActive: boolean;
  subscriptionDaysLeft: number;
  subscriptionEndDate: string | null;
}

export const SUBSCRIPTION_KEY = '/api/subscription/status';

/** The caller's subscription, fresh from the server; keeps the stored session's flag in step. */
export function useSubscription() {
  const session = useSession();
  const { data, mutate } = useSWR<SubscriptionStatus>(session ? SUBSCRIPTION_KEY : null, fetcher, {
    revalidateOnFocus: true,
  });
  useEffect(() => {
    if (data && session && data.isSubscriptionActive !== session.isSubscriptionActive) {
      updateSession({ isSubscriptionActive: data.isSubscriptionActive });
    }
  }, [data, session]);
  return { status: data, isActive: data?.isSubscriptionActive ?? session?.isSubscriptionActive ?? false, mutate };
}
