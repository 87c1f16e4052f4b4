import { and, desc, eq, sql } from 'drizzle-orm';
import { apiKeys } from '../db/schema';
import type { Caller, Db } from '../env';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { apiError } from '../lib/errors';
import { randomId, sha256Hex } from '../lib/ids';
import { type ApiKeyDto, LINK_MESSAGES } from './links.schema';

/** Every key starts so: a secret scanner (and a person) can tell what it is. */
export const KEY_PREFIX = 'fd_live_';
export const MAX_KEYS_PER_USER = 20;
const MAX_KEY_LIFETIME_MS = 2 * 366 * 86_400_000;

type KeyRow = typeof apiKeys.$inferSelect;
const toDto = (row: KeyRow): ApiKeyDto => ({
  _id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
});

export async function listKeys(db: Db, caller: Caller): Promise<ApiKeyDto[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, caller.id)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toDto);
}

/** About 190 bits; only its SHA-256 is stored. The count check and the insert are one statement, so races cannot pass MAX_KEYS_PER_USER. */
export async function createKey(db: Db, caller: Caller, input: { name: string; expiresAt?: string | null }, now = Date.now()) {
  let expiresAt: Date | null = null;
  if (input.expiresAt) {
    expiresAt = new Date(input.expiresAt);
    const at = expiresAt.getTime();
    if (Number.isNaN(at) || at <= now || at > now + MAX_KEY_LIFETIME_MS) throw apiError(LINK_MESSAGES.keyExpiresAt);
  }
  const key = `${KEY_PREFIX}${randomId(32)}`;
  const row: KeyRow = {
    id: randomId(),
    userId: caller.id,
    companyId: caller.companyId,
    name: input.name,
    prefix: key.slice(0, KEY_PREFIX.length + 4),
    hash: await sha256Hex(key),
    createdAt: new Date(now),
    expiresAt,
    lastUsedAt: null,
  };
  const inserted = await db
    .insert(apiKeys)
    .select(
      sql`select ${row.id}, ${row.userId}, ${row.companyId}, ${row.name}, ${row.prefix}, ${row.hash}, ${now}, ${expiresAt ? expiresAt.getTime() : null}, null
          where (select count(*) from ${apiKeys} where ${apiKeys.userId} = ${caller.id}) < ${MAX_KEYS_PER_USER}`,
    )
    .returning({ id: apiKeys.id });
  if (!inserted.length) throw apiError(LINK_MESSAGES.tooManyKeys);
  return { ...toDto(row), key };
}

/** Revokes (deletes) one of the caller's keys; another user's key answers 404. */
export async function revokeKey(db: Db, caller: Caller, id: string) {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, caller.id)))
    .returning({ id: apiKeys.id });
  if (!deleted.length) throw apiError(COMMON_MESSAGES.keyNotFound);
}
