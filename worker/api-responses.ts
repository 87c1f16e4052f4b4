import * as z from 'zod';
import { messageSchema, withMessage } from './lib/answer';
import {
  PAYMENT_LABELS,
  paymentLinkSchema,
  paymentSchema,
  paymentSummarySchema,
  priceChangeSchema,
  priceInfoSchema,
  priceScheduleListSchema,
  receiptSchema,
  teamSubscriptionSchema,
} from './payments/payments.schema';
import { moveSchema, shardCompaniesSchema, shardsSchema } from './shards/shards.schema';
import { subscriptionStatusSchema } from './subscriptions/subscriptions.schema';

/**
 * What each JSON call answers on success, by `METHOD /api/path` (the route table's spelling) and
 * status: the response schemas of the areas' `*.schema.ts` files. Nothing validates an answer at
 * run time; the routes are typed with the inferred types, the OpenAPI document
 * (worker/dev/api-reference.ts) describes the answers from here, and worker/api-responses.test.ts
 * parses the real answers of the calls the web app and the extension read with these schemas.
 */

type Responses = Record<string, Partial<Record<200 | 201, z.ZodType>>>;
const ok200 = (schema: z.ZodType) => ({ 200: schema });

export const API_RESPONSES = {
  // payments and subscriptions
  'GET /api/payment/monthlyprice': ok200(priceInfoSchema),
  'GET /api/payment/paymentHistory': ok200(z.array(paymentSchema)),
  'POST /api/payment/getPaymentLink': ok200(paymentLinkSchema),
  'POST /api/payment/generateLink': ok200(z.strictObject({ orderId: z.string() })),
  'POST /api/payment/generateTeamLink': ok200(z.strictObject({ orderId: z.string() })),
  'POST /api/payment/get_arca_status': ok200(z.strictObject({ isPaymentConfirmed: z.boolean() })),
  'POST /api/payment/refund': ok200(withMessage({ _id: z.string(), refunded: z.number(), leftToRefund: z.number() })),
  'POST /api/payment/cancelOrder': ok200(z.strictObject({ orderId: z.string(), status: z.enum(PAYMENT_LABELS) })),
  'GET /api/payment/receipt/:id': ok200(receiptSchema),
  'GET /api/payment/summary': ok200(paymentSummarySchema),
  'GET /api/payment/priceSchedule': ok200(priceScheduleListSchema),
  'POST /api/payment/priceSchedule': ok200(z.strictObject({ message: z.string(), change: priceChangeSchema })),
  'DELETE /api/payment/priceSchedule/:id': ok200(messageSchema),
  'GET /api/subscription/status': ok200(subscriptionStatusSchema),
  'POST /api/subscription/childUsersSubscriptions': ok200(z.array(teamSubscriptionSchema)),
  // the health check (public)
  'GET /api/health': ok200(z.strictObject({ ok: z.literal(true), checks: z.record(z.string(), z.string()) })),
  // shards (admin)
  'GET /api/shards': ok200(shardsSchema),
  'GET /api/shards/:shard/companies': ok200(shardCompaniesSchema),
  'POST /api/shards/moves': ok200(moveSchema),
  'GET /api/shards/moves/:id': ok200(moveSchema),
  'POST /api/shards/moves/:id/rollback': ok200(moveSchema),
} satisfies Responses;

export type ApiCall = keyof typeof API_RESPONSES;

/** The answers a call declares, or none for calls without a response schema yet (CSV, HTML, redirects and the rest). */
export const responsesOf = (method: string, path: string): Responses[string] | undefined => (API_RESPONSES as Responses)[`${method} ${path}`];
