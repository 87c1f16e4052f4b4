import { and, asc, eq } from 'drizzle-orm';
import { filterTypes } from '../db/schema';
import type { Caller, Db } from '../env';
import { runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import { textOf } from '../lib/messages';
import { isLead, teamIdOf } from '../lib/team';
import { FILTER_MESSAGES, type FilterTypeDto, HEX_COLOR } from './filters.schema';

/** The set every team starts with (docs/rules/filters.md#0082-filter-types), in this order. */
export const DEFAULT_FILTER_TYPES = [
  { typeName: 'Blocked', color: '#d32f2f', className: 'red' },
  { typeName: 'Preferred', color: '#2e7d32', className: 'green' },
  { typeName: 'Slow pay', color: '#ef6c00', className: 'orange' },
  { typeName: 'Check first', color: '#1565c0', className: 'blue' },
  { typeName: 'Note', color: '#6b7280', className: 'grey' },
] as const;

/** Named colours the screens offer; another hex colour gets the class name 'custom'. */
export const PALETTE: Record<string, string> = {
  '#d32f2f': 'red',
  '#2e7d32': 'green',
  '#ef6c00': 'orange',
  '#1565c0': 'blue',
  '#6b7280': 'grey',
  '#7b1fa2': 'purple',
  '#00838f': 'teal',
  '#c2185b': 'pink',
  '#f9a825': 'yellow',
  '#4e342e': 'brown',
};

const classNameOf = (color: string) => PALETTE[color.toLowerCase()] ?? 'custom';

type TypeRow = typeof filterTypes.$inferSelect;
const toDto = (r: TypeRow): FilterTypeDto => ({ _id: r.id, typeName: r.typeName, color: r.color, className: r.className, index: r.index });

const readTypes = (db: Db, teamId: string) => db.select().from(filterTypes).where(eq(filterTypes.teamId, teamId)).orderBy(asc(filterTypes.index));

/** The default rows of a team. Their ids derive from the team, so two first reads insert the same rows. */
const defaultRows = (teamId: string) =>
  DEFAULT_FILTER_TYPES.map((t, i) => ({ id: `${teamId}-t${i + 1}`, teamId, typeName: t.typeName, color: t.color, className: t.className, index: i + 1 }));

const insertDefaults = (db: Db, teamId: string) => db.insert(filterTypes).values(defaultRows(teamId)).onConflictDoNothing();

/** A team's types, sorted by index; the default set is written on the team's first read. */
export async function teamTypes(db: Db, teamId: string): Promise<TypeRow[]> {
  const rows = await readTypes(db, teamId);
  if (rows.length) return rows;
  await insertDefaults(db, teamId);
  return readTypes(db, teamId);
}

/** The ids of a team's types, without writing the defaults (a refused request changes nothing). */
export async function teamTypeIds(db: Db, teamId: string): Promise<Set<string>> {
  const rows = await readTypes(db, teamId);
  return new Set((rows.length ? rows : defaultRows(teamId)).map((r) => r.id));
}

/** GET /api/user/filterOverrides. */
export async function listTypes(db: Db, caller: Caller): Promise<FilterTypeDto[]> {
  return (await teamTypes(db, teamIdOf(caller))).map(toDto);
}

/** PUT /api/user/update/filterOverride/: a lead renames and recolours its team's types; agents may not. */
export async function updateTypes(db: Db, caller: Caller, newFilters: { _id: string; typeName: string; color: string }[]) {
  if (!isLead(caller)) throw apiError(FILTER_MESSAGES.agentsCannotRename);
  const teamId = teamIdOf(caller);
  const existing = await readTypes(db, teamId);
  const known = new Set((existing.length ? existing : defaultRows(teamId)).map((t) => t.id));
  for (const t of newFilters) {
    if (!known.has(t._id)) throw apiError(FILTER_MESSAGES.typeNotFound);
    if (!t.typeName.trim()) throw apiError(FILTER_MESSAGES.typeNameEmpty);
    if (!HEX_COLOR.test(t.color)) throw apiError(FILTER_MESSAGES.badColor);
  }
  // a rename before the team's first read writes the defaults in the same batch
  const statements = [
    ...(existing.length ? [] : [insertDefaults(db, teamId)]),
    ...newFilters.map((t) =>
      db
        .update(filterTypes)
        .set({ typeName: t.typeName.trim(), color: t.color.toLowerCase(), className: classNameOf(t.color) })
        .where(and(eq(filterTypes.id, t._id), eq(filterTypes.teamId, teamId))),
    ),
  ];
  await runBatch(db, statements);
  return { message: textOf(FILTER_MESSAGES.typesSaved), filterTypes: (await readTypes(db, teamId)).map(toDto) };
}
