import { and, eq, lt, sql } from 'drizzle-orm';
import { accounts, companies, linkCodes, links } from '../db/schema';
import type { Bindings, Db } from '../env';
import { CONTROL, companyDb, shardDb } from '../lib/d1';
import { isUniqueViolation } from '../lib/db';

/**
 * A code is claimed in the control plane before its link is written in the owner's shard: the
 * primary key decides races across shards (docs/decisions/0180-links-on-shards.md). The owner's
 * shard is read through the account directory, so a code's entry never needs repointing.
 */

export interface LinkPlace {
  linkId: string;
  userId: string;
  companyId: string;
  shard: string;
}

const placeQuery = (control: Db) =>
  control
    .select({
      linkId: linkCodes.linkId,
      userId: linkCodes.userId,
      code: linkCodes.code,
      claimedAt: linkCodes.claimedAt,
      companyId: accounts.companyId,
      shard: companies.shard,
    })
    .from(linkCodes)
    .leftJoin(accounts, eq(accounts.userId, linkCodes.userId))
    .leftJoin(companies, eq(companies.id, accounts.companyId));

type PlaceRow = Awaited<ReturnType<ReturnType<typeof placeQuery>['where']>>[number];

/** A directory row as a place; an owner the directory does not know is a link from before shards: in `DB`. */
const placeOf = (row: PlaceRow): LinkPlace => ({ linkId: row.linkId, userId: row.userId, companyId: row.companyId ?? '', shard: row.shard ?? CONTROL });

/** Where link `linkId` lives, or undefined when the directory has none of its codes (deleted, or made before shards). */
export async function placeOfLink(control: Db, linkId: string): Promise<LinkPlace | undefined> {
  const [row] = await placeQuery(control).where(eq(linkCodes.linkId, linkId)).limit(1);
  return row ? placeOf(row) : undefined;
}

/** A claim held this long with no link row behind it was left by a cut-off creation or edit, and is free. */
export const ORPHAN_CLAIM_MS = 5 * 60_000;

/**
 * `held`: the link already holds it (a simultaneous edit of the same link). One statement: the
 * primary key refuses a code claimed anywhere. `takeOver` frees a claim older than ORPHAN_CLAIM_MS
 * whose link does not have that code.
 */
export async function claimCode(
  env: Bindings,
  control: Db,
  claim: { code: string; linkId: string; userId: string },
  takeOver = false,
  now = new Date(),
): Promise<'claimed' | 'held' | false> {
  const insert = async () => {
    try {
      const rows = await control
        .insert(linkCodes)
        .select(
          sql`select ${claim.code}, ${claim.linkId}, ${claim.userId}, ${now.getTime()} where not exists (select 1 from ${links} where ${links.code} = ${claim.code} and ${links.id} <> ${claim.linkId})`,
        )
        .returning({ code: linkCodes.code });
      return rows.length > 0;
    } catch (err) {
      if (isUniqueViolation(err, 'link_codes.code')) return false;
      throw err;
    }
  };
  if (await insert()) return 'claimed';
  const [held] = await placeQuery(control).where(eq(linkCodes.code, claim.code)).limit(1);
  if (held?.linkId === claim.linkId) return 'held';
  if (!takeOver || !held || held.claimedAt.getTime() > now.getTime() - ORPHAN_CLAIM_MS) return false;
  if (await linkHasCode(env, placeOf(held), claim.code)) return false;
  await control
    .delete(linkCodes)
    .where(and(eq(linkCodes.code, claim.code), eq(linkCodes.linkId, held.linkId), lt(linkCodes.claimedAt, new Date(now.getTime() - ORPHAN_CLAIM_MS))));
  return (await insert()) ? 'claimed' : false;
}

async function linkHasCode(env: Bindings, place: LinkPlace, code: string) {
  const [row] = await shardDb(env, place.shard)
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.id, place.linkId), eq(links.code, code)))
    .limit(1);
  return !!row;
}

/** Gives a code back (its link was deleted, changed code, or was never written). */
export const releaseCode = (control: Db, code: string, linkId: string) =>
  control.delete(linkCodes).where(and(eq(linkCodes.code, code), eq(linkCodes.linkId, linkId)));

/** The fenced handle of a link's company on its shard (the admin acting on another company's link). */
export const placeDb = (env: Bindings, place: LinkPlace): Db => companyDb(env, place.shard, place.companyId);
