import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const links = sqliteTable(
  'links',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    code: text().notNull(),
    from: text().notNull(),
    clicks: integer().notNull().default(0),
    isDisabled: integer({ mode: 'boolean' }).notNull().default(false),
    date: integer({ mode: 'timestamp_ms' }).notNull(),
    /** After this moment the code answers 410 "Link expired" and counts nothing. */
    expiresAt: integer({ mode: 'timestamp_ms' }),
    /** After this many clicks the code answers 410 "Link expired"; the ClickCounter enforces it exactly. */
    maxClicks: integer(),
  },
  (t) => [
    // the redirect's fallback when KV misses
    uniqueIndex('links_code').on(t.code),
    // Links list: a user's links in order
    index('links_user_date').on(t.userId, t.date),
  ],
);

export const linkClickStats = sqliteTable(
  'link_click_stats',
  {
    linkId: text().notNull(),
    day: text().notNull(),
    // 'kind' (person | bot) | 'referrer' | 'country' | 'device'; referrer and country count people only
    dimension: text().notNull(),
    value: text().notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('link_click_stats_key').on(t.linkId, t.day, t.dimension, t.value)],
);

/**
 * Click flushes already applied to D1. A flush carries a random id and inserts it in the same
 * batch as its counts, so a flush retried after a lost answer fails on this key and adds nothing.
 */
export const linkClickFlushes = sqliteTable(
  'link_click_flushes',
  {
    id: text().primaryKey(),
    at: integer({ mode: 'timestamp_ms' }).notNull(),
    // the link the flush counted (null before shards): a move carries a link's flush ids with it,
    // so a flush retried on the new shard is still refused
    linkId: text(),
  },
  (t) => [
    // the ClickCounter's pruning of old ids
    index('link_click_flushes_at').on(t.at),
    // a move: the flush ids of the moving links
    index('link_click_flushes_link').on(t.linkId),
  ],
);

/**
 * Control plane (docs/decisions/0180-links-on-shards.md): the one place a code is unique across
 * shards; claimed here before the link is written in the owner's shard, which holds the truth.
 */
export const linkCodes = sqliteTable(
  'link_codes',
  {
    code: text().primaryKey(),
    linkId: text().notNull(),
    userId: text().notNull(),
    /** When the code was claimed: a claim left by a cut-off creation is taken over after a few minutes. */
    claimedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the click flush and the admin find a link by its id
    index('link_codes_link').on(t.linkId),
  ],
);

/**
 * API keys for scripts: they authenticate the link calls only. The secret is shown once; only
 * its SHA-256 is kept. Revoking deletes the row.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    // the user's company (its shard holds the user): keys live in the control plane, docs/decisions/0174
    companyId: text().notNull().default(''),
    name: text().notNull(),
    /** The key's first characters (`fd_live_AbCd`), so its owner can tell keys apart. */
    prefix: text().notNull(),
    hash: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer({ mode: 'timestamp_ms' }),
    lastUsedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    // authentication: the key's hash
    uniqueIndex('api_keys_hash').on(t.hash),
    // the keys list: a user's keys
    index('api_keys_user').on(t.userId, t.createdAt),
  ],
);
