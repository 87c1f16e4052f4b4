import * as z from 'zod';
import { moveSchema, shardCompaniesSchema, shardsSchema } from './shards/shards.schema';

/** Nothing validates an answer at run time; api-responses.test.ts parses real answers with these schemas. */

type Responses = Record<string, Partial<Record<200 | 201, z.ZodType>>>;
const ok200 = (schema: z.ZodType) => ({ 200: schema });

export const API_RESPONSES = {
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
