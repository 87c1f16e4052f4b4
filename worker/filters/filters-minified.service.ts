/** The extension's list: the filters in force for the caller on a load board, with an ETag. */
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { brokerFilters, brokerFilterUsers, brokerVetting, brokerVettingNames, filterTeamStamps, filterTypes } from '../db/schema';
import type { Caller, Db } from '../env';
import { sha256Hex } from '../lib/ids';
import { jsonArray, selectJsonRows } from '../lib/json-text';
import { teamIdOf } from '../lib/team';
import { appliesTo, jsonBool, onAnyMc, viewerOf } from './filters-visibility.service';

const f = brokerFilters;

/** One filter as the extension's JSON object (MinifiedFilterDto, key for key), built by SQLite like filterRowJson (filters-visibility.service.ts). */
const minifiedRowJson = sql<string>`json_object(
  '_id', ${f.id},
  'name', ${f.name},
  'type', ${f.typeId},
  'typeName', coalesce(${filterTypes.typeName}, ''),
  'color', coalesce(${filterTypes.color}, ''),
  'comment', ${f.comment},
  'onlyOnContacts', ${jsonBool(f.onlyOnContacts)},
  'contacts', json(${f.contactsJson}),
  'allMC', ${jsonBool(f.allMc)},
  'mcList', json(${f.mcListJson}),
  'mcNumber', ${f.mcNumber},
  'aliases', json(${f.aliasesJson}),
  'vetting', (select json_object('state', bv.state, 'checkedAt', bv.checked_at)
    from ${brokerVettingNames} bn join ${brokerVetting} bv on bv.key = bn.key where bn.name = case
    when ltrim(coalesce(${f.dotNumber}, ''), '0') <> '' then 'dot:' || ltrim(${f.dotNumber}, '0')
    when ltrim(coalesce(${f.mcNumber}, ''), '0') <> '' then 'mc:' || ltrim(${f.mcNumber}, '0') end)
)`;

/** Raise when the answer's shape changes, so a stored list is never kept across it. */
const MINIFIED_SHAPE = 2;

/** An If-None-Match header holds `etag` (a list, weak or not, or `*`). */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch &&
  ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });

/**
 * GET /api/broker/minified: the filters in force for the caller on a load board: active, verified
 * (or its own), applying to it as a user, on one of its MCs; with the type's name and colour. As
 * JSON text (MinifiedFilterDto[]) with an ETag; `json` is null when `ifNoneMatch` holds it (304).
 *
 * The ETag is a hash of the team's filter stamp (a new random value in the same statement as any
 * change to the team's filters, their lists or its types: triggers of migration 0017) and of what
 * else decides the answer: the caller, its team, registration date and MCs. The stamp is read
 * before the filters, so an answer is never older than its ETag; a write in between only makes
 * the next sync download again.
 */
export async function minified(db: Db, caller: Caller, ifNoneMatch?: string): Promise<{ etag: string; json: string | null }> {
  const [v, [stampRow], [vettingRow]] = await Promise.all([
    viewerOf(db, caller, true),
    db
      .select({ stamp: filterTeamStamps.stamp })
      .from(filterTeamStamps)
      .where(eq(filterTeamStamps.teamId, teamIdOf(caller)))
      .limit(1),
    // the newest FMCSA status change of any broker (one index seek): a change shows on the board at the next sync
    db.select({ at: sql<number | null>`max(${brokerVetting.stateChangedAt})` }).from(brokerVetting),
  ]);
  const key = [
    MINIFIED_SHAPE,
    stampRow?.stamp ?? '-',
    vettingRow?.at ?? '-',
    v.teamId,
    caller.id,
    v.registeredAt.getTime(),
    [...v.mcIds].sort().join(','),
  ].join('|');
  const etag = `"${(await sha256Hex(key)).slice(0, 32)}"`;
  if (matches(ifNoneMatch, etag)) return { etag, json: null };
  // Only filters that can apply to the caller are read (appliesTo's three ways, each an index):
  // the ones listing it, its own, and its team's for users added later saved before it joined;
  // not the team's tens of thousands. The full conditions below still decide.
  const candidates = sql`${f}.rowid in (
    select bf.rowid from ${brokerFilterUsers} bu join ${f} bf on bf.id = bu.filter_id where bu.user_id = ${caller.id}
    union all select c.rowid from ${f} c where c.creator_id = ${caller.id}
    union all select n.rowid from ${f} n where n.team_id = ${v.teamId} and n.new_users = 1 and n.updated_at < ${v.registeredAt.getTime()})`;
  const query = db
    .select({ j: minifiedRowJson })
    .from(f)
    .leftJoin(filterTypes, and(eq(filterTypes.id, f.typeId), eq(filterTypes.teamId, f.teamId)))
    .where(
      and(
        candidates,
        // visibleTo(v) follows from the conditions below (verified and applying on one of its
        // MCs, or its own): only its team condition is left, unary + so the team's index is not
        // walked instead of the candidates
        sql`+${f.teamId} = ${v.teamId}`,
        eq(f.isVisible, true),
        isNull(f.rejectedReason),
        or(eq(f.isVerified, true), eq(f.creatorId, caller.id)),
        appliesTo(v),
        onAnyMc(v.mcIds),
      ),
    )
    .orderBy(asc(f.index));
  return { etag, json: jsonArray(await selectJsonRows(db, query)) };
}
