import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { MOVE_KINDS, MOVE_STEPS } from '../../shards/shards.schema';

export { MOVE_KINDS, MOVE_STEPS, type MoveStep } from '../../shards/shards.schema';

/** Control plane: at most one open move per company, locked by the partial unique index. */
export const companyMoves = sqliteTable(
  'company_moves',
  {
    id: text().primaryKey(),
    kind: text({ enum: MOVE_KINDS }).notNull(),
    // the company the rows leave: its fence is closed while they move
    companyId: text().notNull(),
    // the company they join (the same company when a whole company moves)
    toCompanyId: text().notNull(),
    fromShard: text().notNull(),
    toShard: text().notNull(),
    // JSON list of the users whose rows move, taken once the source fence is closed
    userIds: text().notNull().default('[]'),
    // a users move: JSON of the role or parent change its flip applies
    flip: text(),
    step: text({ enum: MOVE_STEPS }).notNull(),
    // JSON: where the current step is, and each table's counts and digest
    progress: text().notNull().default('{}'),
    // why it was rolled back, or the last failure it is retrying
    error: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull(),
    finishedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('company_moves_open').on(t.companyId).where(sql`step not in ('done', 'rolled_back')`),
    // the sweeper: open moves nobody advanced lately
    index('company_moves_stalled').on(t.updatedAt).where(sql`step not in ('done', 'rolled_back')`),
    index('company_moves_created').on(t.createdAt),
  ],
);
