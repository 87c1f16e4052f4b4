import { and, asc, desc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import { accounts, companies, companyHomes, linkClickStats, linkCodes, links, users } from '../db/schema';
import { type Bindings, type Caller, type Db, isDevelopment } from '../env';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { allShards, CONTROL, companyDb, controlDb, isFenceRefusal, shardDb } from '../lib/d1';
import { isUniqueViolation } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { enforceLimit, LIMITS } from '../lib/rate-limit';
import { companyMoving } from '../lib/shards';
import { claimCode, placeDb, placeOfLink, releaseCode } from './codes';
import {
  ALIAS_RE,
  checkTarget,
  hostnameOf,
  isLoopbackHost,
  isOwnHost,
  LINK_MESSAGES,
  type LinkDto,
  type LinkEdit,
  type LinkStats,
  type OwnHosts,
} from './links.schema';

export type LinkRow = typeof links.$inferSelect;

/** A write refused by the fence of a company that is moving (the admin on another company's link): 503, try again. */
const unlessMoving = (err: unknown): never => {
  throw isFenceRefusal(err) ? companyMoving() : err;
};
export const CODE_LENGTH = 7;
export interface KvLink {
  id: string;
  from: string;
  disabled: boolean;
  /** Epoch ms; absent or null: no expiry. */
  expiresAt?: number | null;
  /** Absent or null: no click limit. */
  maxClicks?: number | null;
  /** Absent in entries written before shards (docs/decisions/0180-links-on-shards.md). */
  co?: string;
}

export const kvLinkOf = (row: Pick<LinkRow, 'id' | 'from' | 'isDisabled' | 'expiresAt' | 'maxClicks'>, companyId: string): KvLink => ({
  id: row.id,
  from: row.from,
  disabled: row.isDisabled,
  expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
  maxClicks: row.maxClicks ?? null,
  co: companyId,
});
export const kvKey = (code: string) => `s:${code}`;

const base = (env: Bindings) => env.PUBLIC_URL.replace(/\/$/, '');
export const toDto = (env: Bindings, row: LinkRow, now = Date.now()): LinkDto => ({
  _id: row.id,
  from: row.from,
  to: `${base(env)}/s/${row.code}`,
  clicks: row.clicks,
  date: row.date.toISOString(),
  code: row.code,
  isDisabled: row.isDisabled,
  expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  maxClicks: row.maxClicks ?? null,
  status: row.isDisabled ? 'disabled' : isExpired(row, now) ? 'expired' : 'active',
});

/** Past its expiry, or at its click limit (D1's count, about a second behind the ClickCounter's). */
const isExpired = (row: Pick<LinkRow, 'expiresAt' | 'maxClicks' | 'clicks'>, now: number) =>
  (row.expiresAt !== null && row.expiresAt.getTime() <= now) || (row.maxClicks !== null && row.clicks >= row.maxClicks);

/** A new expiry: in the future, or null to remove it. */
function expiryOf(value: string | null | undefined, now = Date.now()): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now) throw apiError(LINK_MESSAGES.expiresAt);
  return at;
}

/** Every loopback spelling too in development, or when one of them is a loopback name. */
export function ownHosts(env: Bindings, requestUrl?: string): OwnHosts {
  const names = new Set<string>();
  for (const host of [env.PUBLIC_URL, requestUrl ?? '', ...(env.OWN_HOSTS ?? '').split(',')]) {
    const name = hostnameOf(host);
    if (name) names.add(name);
  }
  return { names, loopback: isDevelopment(env) || [...names].some(isLoopbackHost) };
}

/** `control` is where the codes are claimed (docs/decisions/0180-links-on-shards.md). */
export interface LinkScope {
  control: Db;
  db: Db;
  companyId: string;
}

export async function createLink(
  env: Bindings,
  scope: LinkScope,
  caller: Caller,
  req: Request,
  input: { from: string; alias?: string; expiresAt?: string | null; maxClicks?: number | null },
) {
  const target = checkTarget(input.from, ownHosts(env, req.url));
  if ('error' in target) throw apiError(target.error);
  const alias = input.alias?.trim();
  if (alias && !ALIAS_RE.test(alias)) throw apiError(LINK_MESSAGES.alias);
  const expiresAt = expiryOf(input.expiresAt) ?? null;
  const maxClicks = input.maxClicks ?? null;
  await enforceLimit(env, `link-user:${caller.id}`, LIMITS.linkCreatePerUser, COMMON_MESSAGES.tooManyLinks);
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = { id: randomId(), userId: caller.id, code: alias || randomId(CODE_LENGTH), from: target.url, date: new Date(), expiresAt, maxClicks };
    // the code is the product's before the link is written: the directory decides races across shards
    if (!(await claimCode(env, scope.control, { code: row.code, linkId: row.id, userId: caller.id }, !!alias))) {
      if (alias) throw apiError(LINK_MESSAGES.aliasTaken);
      continue; // a code collision: draw another
    }
    try {
      await scope.db.insert(links).values(row);
    } catch (err) {
      await releaseCode(scope.control, row.code, row.id).catch((e: unknown) => console.error('giving a short code back failed', e));
      if (!isUniqueViolation(err, 'links.code')) throw err;
      if (alias) throw apiError(LINK_MESSAGES.aliasTaken);
      continue;
    }
    await env.LINKS_KV.put(kvKey(row.code), JSON.stringify(kvLinkOf({ ...row, isDisabled: false }, scope.companyId)));
    // this isolate may hold the code as unknown (a visit before, or a deleted link's code)
    forget(row.code);
    return toDto(env, { ...row, clicks: 0, isDisabled: false });
  }
  throw apiError(COMMON_MESSAGES.noShortCode);
}

/** The order of the links lists: creation time, then id (two links made in one millisecond). */
const byDate = (a: LinkRow, b: LinkRow) => a.date.getTime() - b.date.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A company's copy on its way in or left behind is read on the other shard, so it counts once. */
async function linksOnShard(db: Db) {
  return db
    .select({ link: links, owner: { _id: users.id, name: users.name, email: users.email } })
    .from(links)
    .leftJoin(users, eq(users.id, links.userId))
    .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
    .where(or(isNull(companyHomes.state), inArray(companyHomes.state, ['active', 'moving'])))
    .orderBy(asc(links.date), asc(links.id));
}

/** Each shard's list is already in order, so merging keeps the screen's sorting and totals. */
export async function everyLink(env: Bindings): Promise<LinkDto[]> {
  const lists = await Promise.all(allShards(env).map((shard) => linksOnShard(shardDb(env, shard))));
  const rows = lists.flat().sort((a, b) => byDate(a.link, b.link));
  const now = Date.now();
  return rows.map((r) => ({ ...toDto(env, r.link, now), owner: r.owner ?? undefined }));
}

/** The caller's links, oldest first; the admin's `all` lists everyone's, with each owner, from every shard. */
export async function listLinks(env: Bindings, db: Db, caller: Caller, all: boolean): Promise<LinkDto[]> {
  if (all && caller.userType === 'admin') return everyLink(env);
  const rows = await db.select().from(links).where(eq(links.userId, caller.id)).orderBy(asc(links.date), asc(links.id));
  return rows.map((r) => toDto(env, r));
}

export interface OwnedLink {
  row: LinkRow;
  db: Db;
  companyId: string;
}

/** The admin finds another company's link through the code directory; another user's answers 404. */
export async function ownLink(env: Bindings, scope: LinkScope, caller: Caller, id: string): Promise<OwnedLink> {
  const [row] = await scope.db.select().from(links).where(eq(links.id, id)).limit(1);
  if (row && row.userId === caller.id) return { row, db: scope.db, companyId: scope.companyId };
  if (caller.userType !== 'admin') throw apiError(COMMON_MESSAGES.linkNotFound);
  // the admin on another user's link: on its owner's shard, behind its owner's company's fence
  const place = await placeOfLink(scope.control, id);
  if (place) {
    const db = placeDb(env, place);
    const [found] = await db.select().from(links).where(eq(links.id, id)).limit(1);
    if (found) return { row: found, db, companyId: place.companyId };
  }
  // a link of `DB` from before the code directory: its owner's company is in the same database
  const [legacy] = await shardDb(env, CONTROL)
    .select({ link: links, companyId: users.companyId })
    .from(links)
    .innerJoin(users, eq(users.id, links.userId))
    .where(eq(links.id, id))
    .limit(1);
  if (legacy) return { row: legacy.link, db: companyDb(env, CONTROL, legacy.companyId), companyId: legacy.companyId };
  throw apiError(COMMON_MESSAGES.linkNotFound);
}

export async function linkStats(db: Db, linkId: string, days = 30): Promise<LinkStats> {
  const since = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .select()
    .from(linkClickStats)
    .where(and(eq(linkClickStats.linkId, linkId), gte(linkClickStats.day, since)))
    .orderBy(desc(linkClickStats.count));
  const daily = new Map<string, { day: string; people: number; bots: number; visitors: number }>();
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10);
    daily.set(day, { day, people: 0, bots: 0, visitors: 0 });
  }
  const sum = (dimension: string) => {
    const totals = new Map<string, number>();
    for (const r of rows) if (r.dimension === dimension) totals.set(r.value, (totals.get(r.value) ?? 0) + r.count);
    return [...totals].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
  };
  let bots = 0;
  for (const r of rows) {
    if (r.dimension === 'unique') {
      const d = daily.get(r.day);
      if (d) d.visitors += r.count;
      continue;
    }
    if (r.dimension !== 'kind') continue;
    const d = daily.get(r.day);
    if (r.value === 'bot') bots += r.count;
    if (d) d[r.value === 'bot' ? 'bots' : 'people'] += r.count;
  }
  return {
    daily: [...daily.values()],
    referrers: sum('referrer'),
    countries: sum('country'),
    devices: sum('device'),
    browsers: sum('browser'),
    oses: sum('os'),
    bots,
  };
}

/** One link's clicks per day from its creation to today (UTC), for its CSV export. */
export async function dailyClicks(db: Db, row: LinkRow, now = Date.now()) {
  const first = row.date.toISOString().slice(0, 10);
  const rows = await db
    .select()
    .from(linkClickStats)
    .where(and(eq(linkClickStats.linkId, row.id), gte(linkClickStats.day, first), lte(linkClickStats.day, new Date(now).toISOString().slice(0, 10))));
  const days = new Map<string, { day: string; people: number; bots: number; visitors: number }>();
  // at most about three years of rows: older days are in the stats table only if the clock moved
  const start = Math.max(Date.parse(`${first}T00:00:00Z`), now - 3 * 366 * 86_400_000);
  for (let t = start; t <= now; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.set(day, { day, people: 0, bots: 0, visitors: 0 });
  }
  for (const r of rows) {
    const d = days.get(r.day);
    if (!d) continue;
    if (r.dimension === 'kind') d[r.value === 'bot' ? 'bots' : 'people'] += r.count;
    if (r.dimension === 'unique') d.visitors += r.count;
  }
  return [...days.values()];
}

/** The old alias answers 404 and is free at once; other isolates follow within CACHE_MS, other locations within KV's minute. */
export async function updateLink(env: Bindings, scope: LinkScope, caller: Caller, req: Request, id: string, input: LinkEdit) {
  const { row, db, companyId } = await ownLink(env, scope, caller, id);
  const set: Partial<LinkRow> = {};
  if (input.isDisabled !== undefined) set.isDisabled = input.isDisabled;
  if (input.from !== undefined) {
    const target = checkTarget(input.from, ownHosts(env, req.url));
    if ('error' in target) throw apiError(target.error);
    set.from = target.url;
  }
  if (input.alias !== undefined) {
    const alias = input.alias.trim();
    if (!ALIAS_RE.test(alias)) throw apiError(LINK_MESSAGES.alias);
    if (alias !== row.code) set.code = alias;
  }
  if (input.expiresAt !== undefined) set.expiresAt = expiryOf(input.expiresAt) ?? null;
  if (input.maxClicks !== undefined) set.maxClicks = input.maxClicks;
  if (!Object.keys(set).length) return toDto(env, row);
  const code = set.code;
  const claimed = code ? await claimCode(env, scope.control, { code, linkId: row.id, userId: row.userId }, true) : undefined;
  if (claimed === false) throw apiError(LINK_MESSAGES.aliasTaken);
  let updated: LinkRow | undefined;
  try {
    [updated] = await db.update(links).set(set).where(eq(links.id, row.id)).returning();
  } catch (err) {
    if (code && claimed === 'claimed')
      await releaseCode(scope.control, code, row.id).catch((e: unknown) => console.error('giving a short code back failed', e));
    if (isUniqueViolation(err, 'links.code')) throw apiError(LINK_MESSAGES.aliasTaken);
    unlessMoving(err);
  }
  if (!updated) {
    if (code) await releaseCode(scope.control, code, row.id);
    throw apiError(COMMON_MESSAGES.linkNotFound); // deleted meanwhile
  }
  if (updated.code !== row.code) {
    await releaseCode(scope.control, row.code, row.id);
    await env.LINKS_KV.delete(kvKey(row.code));
    forget(row.code);
  }
  await syncKv(env, db, updated, companyId);
  return toDto(env, updated);
}

/** Reads D1 again after the put: of two concurrent edits, the last to finish writes what D1 holds last. */
async function syncKv(env: Bindings, db: Db, row: LinkRow, companyId: string) {
  let current: LinkRow | undefined = row;
  for (let round = 0; current && round < 3; round++) {
    const value = JSON.stringify(kvLinkOf(current, companyId));
    await env.LINKS_KV.put(kvKey(current.code), value);
    forget(current.code);
    const [again]: (LinkRow | undefined)[] = await db.select().from(links).where(eq(links.id, row.id)).limit(1);
    if (!again) {
      // deleted meanwhile: the put above must not bring its code back
      await env.LINKS_KV.delete(kvKey(current.code));
      forget(current.code);
      return;
    }
    if (again.code === current.code && JSON.stringify(kvLinkOf(again, companyId)) === value) return;
    if (again.code !== current.code) await env.LINKS_KV.delete(kvKey(current.code));
    current = again;
  }
}

/** docs/rules/links.md#0051-link-delete: clicks still on their way add nothing. */
export async function deleteLink(env: Bindings, scope: LinkScope, caller: Caller, id: string) {
  const { row, db } = await ownLink(env, scope, caller, id);
  await db.batch([db.delete(links).where(eq(links.id, row.id)), db.delete(linkClickStats).where(eq(linkClickStats.linkId, row.id))]).catch(unlessMoving);
  // the row first: a crash between the two leaves a claim without a link, free again (codes.ts)
  await releaseCode(scope.control, row.code, row.id);
  await env.LINKS_KV.delete(kvKey(row.code));
  forget(row.code);
}

/**
 * A link as the redirect keeps it in the isolate: its KV entry, its target's host name, and
 * whether that host is one of ours (a link saved before targets on our own hosts were refused).
 */
export interface CachedLink extends KvLink {
  targetHost: string;
  ownTarget: boolean;
}

/** A short in-isolate cache in front of KV: the redirect's hot path usually reads neither. */
export const CACHE_MS = 30_000;
const MISS_CACHE_MS = 5_000;
const cache = new Map<string, { link: CachedLink | null; until: number }>();
const loading = new Map<string, Promise<CachedLink | null>>();
export const forget = (code: string) => cache.delete(code);

/** The cached answer for `code`: the link, null for a known unknown code, undefined on a miss. */
export function cachedCode(code: string, now = Date.now()): CachedLink | null | undefined {
  const hit = cache.get(code);
  return hit && hit.until > now ? hit.link : undefined;
}

/** A link created elsewhere less than a minute ago, or evicted from KV: one round trip via the code directory. */
async function linkOfCode(env: Bindings, code: string): Promise<KvLink | null> {
  const control = controlDb(env);
  const inShard = (db: Db) =>
    db.select({ link: links, companyId: users.companyId }).from(links).leftJoin(users, eq(users.id, links.userId)).where(eq(links.code, code)).limit(1);
  const [[place], [legacy]] = await control.batch([
    control
      .select({ linkId: linkCodes.linkId, shard: companies.shard })
      .from(linkCodes)
      .leftJoin(accounts, eq(accounts.userId, linkCodes.userId))
      .leftJoin(companies, eq(companies.id, accounts.companyId))
      .where(eq(linkCodes.code, code))
      .limit(1),
    inShard(control),
  ]);
  let found = legacy;
  if (place) {
    const shard = place.shard ?? CONTROL;
    [found] = shard === CONTROL ? [legacy] : await inShard(shardDb(env, shard));
    if (found?.link.id !== place.linkId) found = undefined;
  }
  return found ? kvLinkOf(found.link, found.companyId ?? '') : null;
}

/** KV is filled off the response path; concurrent misses of one code in one isolate share one lookup. */
export function resolveCode(env: Bindings, code: string, defer: (p: Promise<unknown>) => void): Promise<CachedLink | null> {
  let load = loading.get(code);
  if (!load) {
    load = (async () => {
      let link = await env.LINKS_KV.get<KvLink>(kvKey(code), { type: 'json', cacheTtl: 60 });
      if (!link) {
        link = await linkOfCode(env, code);
        if (link) defer(env.LINKS_KV.put(kvKey(code), JSON.stringify(link)));
      }
      let cached: CachedLink | null = null;
      if (link) {
        const targetHost = hostnameOf(link.from);
        // the configured hosts only: the cache serves requests to every host; the redirect compares
        // the target with the host of each request itself
        cached = { ...link, targetHost, ownTarget: isOwnHost(targetHost, ownHosts(env)) };
      }
      if (cache.size > 10_000) cache.clear();
      cache.set(code, { link: cached, until: Date.now() + (cached ? CACHE_MS : MISS_CACHE_MS) });
      return cached;
    })().finally(() => loading.delete(code));
    loading.set(code, load);
  }
  return load;
}
