import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { allow } from '../lib/auth';
import { validate } from '../lib/validate';
import { kickMove, loadMove, moveView, rollbackMove, startCompanyMove } from './move';
import { moveIdParam, moveRequestSchema, shardParam } from './shards.schema';
import { listShards, shardCompanies } from './shards.service';

/**
 * /api/shards: the admin's view of the databases and moving a company between them
 * (docs/decisions/0181-moving-companies.md); `npm run company:move` drives these calls.
 */
export const shardRoutes = new Hono<AppEnv>()
  .get('/', allow('shards'), async (c) => c.json(await listShards(c.env, c.var.control), 200))
  .get('/:shard/companies', allow('shards'), validate('param', shardParam), async (c) =>
    c.json(await shardCompanies(c.env, c.var.control, c.req.valid('param').shard), 200),
  )
  // starts a move, or answers (and wakes) the company's open move to that shard: a rerun resumes it
  .post('/moves', allow('shards'), validate('json', moveRequestSchema), async (c) => {
    const { companyId, shard } = c.req.valid('json');
    const move = await startCompanyMove(c.env, c.var.control, companyId, shard);
    await kickMove(c.env, move.id);
    return c.json(moveView(move), 200);
  })
  .get('/moves/:id', allow('shards'), validate('param', moveIdParam), async (c) =>
    c.json(moveView(await loadMove(c.var.control, c.req.valid('param').id)), 200),
  )
  .post('/moves/:id/rollback', allow('shards'), validate('param', moveIdParam), async (c) => {
    const move = await rollbackMove(c.var.control, c.req.valid('param').id);
    await kickMove(c.env, move.id);
    return c.json(moveView(move), 200);
  });

export type ShardRoutes = typeof shardRoutes;
