import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies, companyHomes } from '../db/schema';
import { control, testEnv } from '../test/helpers';
import { newCompany } from '../users/directory';
import { placementShards, shardDb } from './d1';

const countOn = async (shard: string) => (await control.select().from(companies).where(eq(companies.shard, shard))).length;

describe('placing new companies on shards (docs/decisions/0174-company-shards.md)', () => {
  it('30 companies made at once spread evenly over the shards, each with its home row there, 3 rounds', async () => {
    const shards = placementShards(testEnv);
    expect(shards.length).toBeGreaterThanOrEqual(3);
    for (let round = 0; round < 3; round++) {
      const before = await Promise.all(shards.map(countOn));
      const homes = await Promise.all(Array.from({ length: 30 }, () => newCompany(testEnv, control)));
      // choosing first and writing after put a whole burst on one shard
      const after = await Promise.all(shards.map(countOn));
      const added = after.map((n, i) => n - before[i]!);
      expect(added.reduce((a, b) => a + b, 0)).toBe(30);
      expect(Math.max(...after) - Math.min(...after), `round ${round}: ${after}`).toBeLessThanOrEqual(Math.max(1, Math.max(...before) - Math.min(...before)));
      for (const home of homes) {
        const [row] = await control.select().from(companies).where(eq(companies.id, home.companyId));
        expect(row?.shard).toBe(home.shard);
        const [here] = await shardDb(testEnv, home.shard).select().from(companyHomes).where(eq(companyHomes.companyId, home.companyId));
        expect(here?.state).toBe('active');
      }
    }
  });

  it('one after another, each new company goes to the emptiest shard', async () => {
    const shards = placementShards(testEnv);
    for (let i = 0; i < 6; i++) {
      const counts = await Promise.all(shards.map(countOn));
      const fewest = Math.min(...counts);
      const home = await newCompany(testEnv, control);
      expect(counts[shards.indexOf(home.shard)]).toBe(fewest);
    }
  });
});
