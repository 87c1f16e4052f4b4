import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { brokerFilterAliases, brokerFilters } from '../db/schema';
import type { Db } from '../env';
import { chunks, inJson, isUniqueViolation, runBatch } from '../lib/db';
import { apiError, apiErrorWith } from '../lib/errors';
import { normalizeBrokerName } from './broker-name';
import { FILTER_MESSAGES } from './filters.messages';
import { type Viewer, visibleTo } from './filters-visibility.service';

const f = brokerFilters;
const aliasesOf = brokerFilterAliases;

/** A name's aliases as stored: trimmed, one per normal form, none equal to the name itself. */
export function cleanAliases(aliases: readonly string[], normalName: string): { alias: string; normalAlias: string }[] {
  const seen = new Set([normalName]);
  const out: { alias: string; normalAlias: string }[] = [];
  for (const raw of aliases) {
    const alias = raw.trim();
    const normalAlias = normalizeBrokerName(alias);
    if (normalAlias && !seen.has(normalAlias)) {
      seen.add(normalAlias);
      out.push({ alias, normalAlias });
    }
  }
  return out;
}

/**
 * SQL cannot compute the normal form (docs/decisions/0088-duplicate-rule-in-database.md). A row whose
 * normal name another filter holds gets `<normal>#<id>`, so old duplicates stay readable. Racing fills agree.
 */
export async function fillNormalNames(db: Db, teamId: string) {
  const rows = await db
    .select({ id: f.id, name: f.name })
    .from(f)
    .where(and(eq(f.teamId, teamId), isNull(f.normalName)))
    .limit(2000);
  if (!rows.length) return;
  const updates = rows.map((row) => {
    const normal = normalizeBrokerName(row.name) || row.id;
    return db
      .update(f)
      .set({
        normalName: sql`case
          when exists (select 1 from ${f} other where other.team_id = ${teamId} and other.normal_name = ${normal})
            or exists (select 1 from ${aliasesOf} where ${aliasesOf.teamId} = ${teamId} and ${aliasesOf.normalAlias} = ${normal})
          then ${`${normal}#${row.id}`} else ${normal} end`,
      })
      .where(and(eq(f.id, row.id), isNull(f.normalName)));
  });
  for (const part of chunks(updates, 50)) await runBatch(db, part);
}

/** With the filter's id when the caller sees it, so the modal can offer "Open it". */
export async function duplicateError(
  db: Db,
  v: Viewer,
  r: { normalName: string; mcNumber: string | null; aliases: { normalAlias: string }[] },
  selfId?: string,
) {
  const names = [r.normalName, ...r.aliases.map((a) => a.normalAlias)];
  const byName = or(
    inJson(f.normalName, names),
    sql`${f.id} in (select ${aliasesOf.filterId} from ${aliasesOf} where ${aliasesOf.teamId} = ${v.teamId} and ${inJson(aliasesOf.normalAlias, names)})`,
  );
  const [hit] = await db
    .select({ id: f.id, name: f.name, visible: sql<number>`${visibleTo(v)}` })
    .from(f)
    .where(and(eq(f.teamId, v.teamId), selfId ? sql`${f.id} <> ${selfId}` : undefined, r.mcNumber ? or(byName, eq(f.mcNumber, r.mcNumber)) : byName))
    .limit(1);
  if (!hit) return apiError(FILTER_MESSAGES.duplicateThisName);
  // a filter the caller cannot see is not named: neither its name nor its id leaks
  if (!hit.visible) return apiError(FILTER_MESSAGES.hiddenDuplicate);
  return apiErrorWith({ existingFilterId: hit.id, existingFilterName: hit.name }, FILTER_MESSAGES.duplicate, { name: hit.name });
}

export async function batchOrDuplicate(db: Db, v: Viewer, r: Parameters<typeof duplicateError>[2], statements: BatchItem<'sqlite'>[], selfId?: string) {
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (isUniqueViolation(err)) throw await duplicateError(db, v, r, selfId);
    throw err;
  }
}
