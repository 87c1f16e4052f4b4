import * as z from 'zod';

/** GET /api/subscription/status: whether the caller's subscription is active, and until when. */
export const subscriptionStatusSchema = z.strictObject({
  isSubscriptionActive: z.boolean(),
  subscriptionDaysLeft: z.number(),
  subscriptionEndDate: z.string().nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
