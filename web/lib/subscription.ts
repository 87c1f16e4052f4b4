import { useEffect } from 'react';
import { api } from './api-client';
import { useSession, updateSession } from './session';
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
