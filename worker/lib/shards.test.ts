import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies, companyHomes } from '../db/schema';
import { control, testEnv } from '../test/helpers';
import { newCompany } from '../users/directory';
import { placementShards, shardDb } from './d1';
import { placeNewCompany } from './shards';

describe('placing new companies on shards (docs/decisions/0174-company-shards.md)', () => {
  it('30 companies made at once spread over the shards, each with its home row there, 3 rounds', async () => {
    const shards = placementShards(testEnv);
    expect(shards.length).toBeGreaterThanOrEqual(3);
    const landed = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      const homes = await Promise.all(Array.from({ length: 30 }, () => newCompany(testEnv, control)));
      const round_ = new Set(homes.map((h) => h.shard));
      // taking "the emptiest" outright put a whole burst on one shard
      expect(round_.size, `round ${round}`).toBeGreaterThan(1);
      for (const home of homes) {
        landed.set(home.shard, (landed.get(home.shard) ?? 0) + 1);
        const [row] = await control.select().from(companies).where(eq(companies.id, home.companyId));
        expect(row?.shard).toBe(home.shard);
        const [here] = await shardDb(testEnv, home.shard).select().from(companyHomes).where(eq(companyHomes.companyId, home.companyId));
        expect(here?.state).toBe('active');
      }
    }
    expect([...landed.keys()].sort()).toEqual([...shards].sort());
  });

  it('the emptier a shard, the likelier: a shard far behind takes the draw nearly always', async () => {
    const [first, ...rest] = placementShards(testEnv);
    const count = async (shard: string) => (await control.select().from(companies).where(eq(companies.shard, shard))).length;
    // every shard but the first gets to 20 companies more than the first has
    const target = (await count(first!)) + 20;
    for (const shard of rest)
      for (let i = await count(shard); i < target; i++) await control.insert(companies).values({ id: `fill-${shard}-${i}`, shard, createdAt: new Date() });
    const draws = await Promise.all(Array.from({ length: 50 }, (_, i) => placeNewCompany(testEnv, control, () => i / 50)));
    // weights: 21 for the first, about 1 each for the others
    expect(draws.filter((s) => s === first).length).toBeGreaterThanOrEqual(40);
  });
});
