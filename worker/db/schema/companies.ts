import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Where the data lives (docs/decisions/0174-company-shards.md). Every database has every table;
 * these three are read in the control plane (`DB`), the fence in each shard.
 */

export const COMPANY_STATES = ['active', 'moving'] as const;

/** Control plane: one row per company (the top of a team tree). */
export const companies = sqliteTable(
  'companies',
  {
    id: text().primaryKey(),
    // the D1 binding of the company's shard ('DB' for companies not yet moved off the first database)
    shard: text().notNull(),
    state: text({ enum: COMPANY_STATES }).notNull().default('active'),
    // while moving: the shard the company goes to
    moveTo: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // placement: companies per shard
    index('companies_shard').on(t.shard),
  ],
);

/**
 * Control plane: the account directory. What must be found before the company is known: login,
 * registration and e-mail changes look here, so an e-mail is unique across every shard.
 */
export const accounts = sqliteTable(
  'accounts',
  {
    userId: text().primaryKey(),
    email: text().notNull(),
    companyId: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    deletedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // login; a deleted account's e-mail may be taken again
    uniqueIndex('accounts_email_live').on(t.email).where(sql`deleted_at is null`),
    // a company's users (moves, the admin's fan-out)
    index('accounts_company').on(t.companyId),
  ],
);

export const HOME_STATES = ['active', 'moving', 'incoming', 'moved'] as const;

/**
 * Each shard: the companies it holds and whether their data may change. Every write through a
 * company's handle runs in one batch with a statement that fails unless the company is `active`
 * here (lib/shards.ts), so a move's copy never misses a write.
 */
export const companyHomes = sqliteTable('company_homes', {
  companyId: text().primaryKey(),
  state: text({ enum: HOME_STATES }).notNull(),
  changedAt: integer({ mode: 'timestamp_ms' }).notNull(),
});

/** One row, rewritten by every fenced write: its CHECK fails when the company is not active. */
export const writeFence = sqliteTable('write_fence', { id: integer().primaryKey(), ok: integer().notNull() }, (t) => [
  check('write_fence_open', sql`${t.ok} = 1`),
]);
