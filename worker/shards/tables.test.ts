import { getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema';
import { allShards, d1Of } from '../lib/d1';
import { testEnv } from '../test/helpers';
import { classificationOf, MOVED_TABLES } from './tables';

/** Every table of worker/db/schema and of each migrated database: where its rows live, so the mover never forgets one. */
describe('the classification of tables (worker/shards/tables.ts)', () => {
  it('names every table of worker/db/schema', () => {
    const tables = Object.values(schema)
      .filter((value) => is(value, SQLiteTable))
      .map((t) => getTableName(t as SQLiteTable));
    expect(tables.length).toBeGreaterThan(40);
    expect(tables.filter((t) => !classificationOf(t))).toEqual([]);
  });

  it('names every table of every migrated database (tables only a migration makes too)', async () => {
    for (const shard of allShards(testEnv)) {
      const { results } = await d1Of(testEnv, shard)
        .prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'`)
        .all<{ name: string }>();
      expect(results.length).toBeGreaterThan(40);
      expect(
        results.map((r) => r.name).filter((t) => !classificationOf(t)),
        shard,
      ).toEqual([]);
    }
  });

  it('selects each company table by a column that exists, through a parent copied before it', async () => {
    const db = d1Of(testEnv, 'DB');
    for (const [i, spec] of MOVED_TABLES.entries()) {
      const { results } = await db.prepare('select name from pragma_table_info(?1)').bind(spec.table).all<{ name: string }>();
      const columns = results.map((r) => r.name);
      expect(columns, spec.table).toContain(spec.column);
      for (const c of spec.order ?? []) expect(columns, spec.table).toContain(c);
      if (spec.via)
        expect(
          MOVED_TABLES.findIndex((t) => t.table === spec.via!.table),
          spec.table,
        ).toBeLessThan(i);
    }
  });
});
