import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { answers } from '../lib/answer';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import { kickMove, loadMove, moveView, rollbackMove, startCompanyMove } from './move';
import { SHARD_MESSAGES as SHARDS } from './shards.messages';
import { moveIdParam, moveRequestSchema, moveSchema, shardCompaniesSchema, shardParam, shardsSchema } from './shards.schema';
import { listShards, shardCompanies } from './shards.service';

/**
 * /api/shards: the admin's view of the databases and moving a company between them
 * (docs/decisions/0181-moving-companies.md); `npm run company:move` drives these calls.
 */
export const shardRoutes = new Hono<AppEnv>()
  .get('/', allow('shards'), answers(shardsSchema), async (c) => c.var.answer(await listShards(c.env, c.var.control)))
  .get('/:shard/companies', allow('shards'), validate('param', shardParam), answers(shardCompaniesSchema, [SHARDS.shardName, SHARDS.noShard]), async (c) =>
    c.var.answer(await shardCompanies(c.env, c.var.control, c.req.valid('param').shard)),
  )
  // starts a move, or answers (and wakes) the company's open move to that shard: a rerun resumes it
  .post(
    '/moves',
    allow('shards'),
    validate('json', moveRequestSchema),
    answers(moveSchema, [SHARDS.shardName, SHARDS.noShard, SHARDS.companyNotFound, SHARDS.alreadyMoving, SHARDS.alreadyOnShard]),
    async (c) => {
      const { companyId, shard } = c.req.valid('json');
      const move = await startCompanyMove(c.env, c.var.control, companyId, shard);
      await kickMove(c.env, move.id);
      return c.var.answer(moveView(move));
    },
  )
  .get('/moves/:id', allow('shards'), validate('param', moveIdParam), answers(moveSchema, [SHARDS.moveNotFound]), async (c) =>
    c.var.answer(moveView(await loadMove(c.var.control, c.req.valid('param').id))),
  )
  .post(
    '/moves/:id/rollback',
    allow('shards'),
    validate('param', moveIdParam),
    answers(moveSchema, [SHARDS.moveNotFound, SHARDS.moveDone, SHARDS.moveCommitted]),
    async (c) => {
      const move = await rollbackMove(c.var.control, c.req.valid('param').id);
      await kickMove(c.env, move.id);
      return c.var.answer(moveView(move));
    },
  );

export type ShardRoutes = typeof shardRoutes;
