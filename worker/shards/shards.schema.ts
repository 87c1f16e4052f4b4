import * as z from 'zod';
import { problem } from '../lib/messages';
import { SHARD_MESSAGES } from './shards.messages';

/** A whole company, or some of its users (a team joining a company on another shard). */
export const MOVE_KINDS = ['company', 'users'] as const;
/** docs/decisions/0181-moving-companies.md: the steps in order; a move ends `done` or `rolled_back`. */
export const MOVE_STEPS = ['copying', 'verifying', 'flipping', 'cleaning', 'done', 'rolling_back', 'rolled_back'] as const;
export type MoveStep = (typeof MOVE_STEPS)[number];

/** A D1 binding that holds companies: `DB` or `SHARD_<n>`. */
const shardName = z.string().regex(/^(DB|SHARD_[A-Z0-9_]+)$/, problem(SHARD_MESSAGES.shardName));

export const moveRequestSchema = z.strictObject({
  companyId: z.string().min(1).max(64),
  shard: shardName,
});
export const moveIdParam = z.object({ id: z.string().min(1).max(64) });
export const shardParam = z.object({ shard: shardName });

const stats = z.strictObject({ rows: z.number(), digest: z.string() });

export const moveSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(MOVE_KINDS),
  companyId: z.string(),
  toCompanyId: z.string(),
  from: z.string(),
  to: z.string(),
  step: z.enum(MOVE_STEPS),
  users: z.number(),
  // the table being copied, checked or deleted
  table: z.string().nullable(),
  copied: z.record(z.string(), z.number()),
  verified: z.record(z.string(), stats),
  deleted: z.record(z.string(), z.number()),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});

export const shardsSchema = z.strictObject({
  shards: z.array(
    z.strictObject({
      name: z.string(),
      // new companies may be placed here (SHARDS)
      placement: z.boolean(),
      companies: z.number(),
      users: z.number(),
    }),
  ),
  moves: z.array(moveSchema),
});

export const shardCompaniesSchema = z.array(z.strictObject({ id: z.string(), state: z.string(), users: z.number(), createdAt: z.string() }));
