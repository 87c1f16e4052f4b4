import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { brokerFilterMcs, mcLines, mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { inJson } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { textOf } from '../lib/messages';
import { isLead, teamIdOf, visibleIds } from '../lib/team';
import { LINES_MESSAGES as LINES } from './mc-settings.messages';
import type { McAddInput, McSettingDto, McUpdateInput } from './mc-settings.schema';

type McRow = typeof mcSettings.$inferSelect & { lines: number[] };
const parent = alias(mcSettings, 'parent_mc');

/** The setting's lines from `mc_lines`, as the JSON array the API answers. */
const linesJson = sql<string>`(select json_group_array(line) from (select ${mcLines.line} as line from ${mcLines} where ${mcLines.mcSettingId} = ${mcSettings.id} order by 1))`;
const selection = { row: mcSettings, lines: linesJson, parentName: parent.name };
const withLines = (r: { row: typeof mcSettings.$inferSelect; lines: string }): McRow => ({ ...r.row, lines: JSON.parse(r.lines) as number[] });

function toDto(row: McRow, parentName: string | null): McSettingDto {
  return {
    _id: row.id,
    name: row.name,
    parentMc: row.parentMcId ? { _id: row.parentMcId, name: parentName ?? row.name } : null,
    lines: row.lines,
    emailSubject: row.emailSubject,
    emailContent: row.emailContent,
    isVisible: row.isVisible,
    userId: row.userId,
  };
}

async function settingsWhere(db: Db, where: ReturnType<typeof and>): Promise<McSettingDto[]> {
  const rows = await db
    .select(selection)
    .from(mcSettings)
    .leftJoin(parent, eq(parent.id, mcSettings.parentMcId))
    .where(where)
    .orderBy(asc(mcSettings.createdAt), asc(mcSettings.id));
  return rows.map((r) => toDto(withLines(r), r.parentName));
}

/** GET /api/mcSettings: the caller's own MC list. */
export const mySettings = (db: Db, caller: Caller) => settingsWhere(db, eq(mcSettings.userId, caller.id));

/** GET /parentMcSettings: the team's MCs (an agent's manager's; a lead's own). */
export const parentSettings = (db: Db, caller: Caller) => settingsWhere(db, and(eq(mcSettings.userId, teamIdOf(caller)), isNull(mcSettings.parentMcId)));

/** GET /allMcSettings: every setting of the users the caller sees by the tree. */
export async function allSettings(db: Db, caller: Caller): Promise<McSettingDto[]> {
  const ids = await visibleIds(db, caller);
  if (!ids) return settingsWhere(db, undefined);
  return settingsWhere(db, inJson(mcSettings.userId, [...ids]));
}

/** POST /byParentId/: the MCs a manager owns, for whoever sees that manager (its agents too). */
export async function settingsByParent(db: Db, caller: Caller, parentId: string): Promise<McSettingDto[]> {
  const ids = await visibleIds(db, caller);
  const mayRead = !ids || ids.has(parentId) || (caller.userType === 'agent' && caller.parentId === parentId);
  const [owner] = mayRead
    ? await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, parentId), isNull(users.deletedAt)))
        .limit(1)
    : [];
  if (!owner) throw apiError(LINES.managerNotFound);
  return settingsWhere(db, and(eq(mcSettings.userId, parentId), isNull(mcSettings.parentMcId)));
}

async function ownSetting(db: Db, caller: Caller, settingId: string) {
  const [row] = await db
    .select()
    .from(mcSettings)
    .where(and(eq(mcSettings.id, settingId), eq(mcSettings.userId, caller.id)))
    .limit(1);
  if (!row) throw apiError(LINES.mcNotFound);
  return row;
}

/** The caller's settings with their lines, oldest first. */
async function ownRows(db: Db, caller: Caller): Promise<McRow[]> {
  const rows = await db
    .select({ row: mcSettings, lines: linesJson })
    .from(mcSettings)
    .where(eq(mcSettings.userId, caller.id))
    .orderBy(asc(mcSettings.createdAt), asc(mcSettings.id));
  return rows.map(withLines);
}

/** The MC that holds the user's `line` now, if any. */
async function lineHolder(db: Db, userId: string, line: number) {
  const [holder] = await db
    .select({ id: mcSettings.id, name: mcSettings.name })
    .from(mcLines)
    .innerJoin(mcSettings, eq(mcSettings.id, mcLines.mcSettingId))
    .where(and(eq(mcLines.userId, userId), eq(mcLines.line, line)))
    .limit(1);
  return holder;
}

/** True when a write failed because one of the user's lines is already held (the key of mc_lines). */
function isLineTaken(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed: mc_lines\.user_id, mc_lines\.line/.test(String((e as Error).message ?? e))) return true;
  }
  return false;
}

/** Writes that lose a line to a simultaneous save are checked again against what is stored this many times. */
const LINE_ATTEMPTS = 3;

/**
 * Gives `line` to setting `settingId` of `userId`, if that setting still exists (a delete may have
 * won). An insert-select (not `db.run`): drizzle's raw statements cannot go in a D1 batch.
 */
const claimLine = (db: Db, userId: string, line: number, settingId: string) =>
  db
    .insert(mcLines)
    .select(sql`select ${userId}, ${line}, ${settingId} where exists (select 1 from mc_settings where id = ${settingId} and user_id = ${userId})`);

/**
 * POST /add/: a lead adds an MC by name; an agent adds one of its manager's MCs (its name) with
 * its own line and templates. One line per MC, and a line is the user's only once: the setting
 * and its line are written in one batch, and the key of `mc_lines` refuses a line another MC
 * holds, so of simultaneous adds for one line exactly one lands.
 */
export async function addSetting(db: Db, caller: Caller, input: McAddInput) {
  const isAgent = !isLead(caller);
  const line = input.lines[0]!;
  let name = (input.name ?? '').trim();
  let parentMcId: string | null = null;
  const teamId = teamIdOf(caller);
  if (isAgent) {
    const [parentMc] = await db
      .select()
      .from(mcSettings)
      .where(and(eq(mcSettings.id, input.parentMc!), eq(mcSettings.userId, teamId), isNull(mcSettings.parentMcId)))
      .limit(1);
    if (!parentMc || caller.parentId === null) throw apiError(LINES.mcNotFound);
    name = parentMc.name;
    parentMcId = parentMc.id;
  }
  for (let attempt = 1; ; attempt++) {
    const id = randomId();
    // an agent's setting: once per manager MC, and only while that MC exists (a delete may win);
    // columns in the table's order: id, user_id, name, parent_mc_id, email_subject, email_content, is_visible, created_at
    const insertSetting = db.insert(mcSettings).select(sql`
      select ${id}, ${caller.id}, ${name}, ${parentMcId}, ${input.emailSubject ?? ''}, ${input.emailContent ?? ''}, 1, ${Date.now()}
      where ${parentMcId} is null or (
        not exists (select 1 from mc_settings s where s.user_id = ${caller.id} and s.parent_mc_id = ${parentMcId})
        and exists (select 1 from mc_settings p where p.id = ${parentMcId} and p.user_id = ${teamId} and p.parent_mc_id is null)
      )`);
    try {
      const [inserted] = await db.batch([insertSetting, claimLine(db, caller.id, line, id)]);
      if (!inserted.meta.changes) {
        const [already] = await db
          .select({ id: mcSettings.id })
          .from(mcSettings)
          .where(and(eq(mcSettings.userId, caller.id), eq(mcSettings.parentMcId, parentMcId!)))
          .limit(1);
        throw already ? apiError(LINES.alreadyAdded) : apiError(LINES.mcNotFound);
      }
    } catch (err) {
      if (!isLineTaken(err)) throw err;
      const holder = await lineHolder(db, caller.id, line);
      if (holder) throw apiError(LINES.lineTaken, { line, name: holder.name });
      // the holder let the line go in between: try again
      if (attempt >= LINE_ATTEMPTS) throw apiError(LINES.linesChanged);
      continue;
    }
    const [dto] = await settingsWhere(db, eq(mcSettings.id, id));
    return { message: textOf(LINES.added), mcSetting: dto! };
  }
}

/**
 * The writes of one Save Settings, checked on the caller's list as it is stored now and as it will
 * be after the save (so two MCs may swap lines in one save). Throws the 4xx answers.
 */
async function planUpdate(db: Db, caller: Caller, input: McUpdateInput) {
  const rows = await ownRows(db, caller);
  const byId = new Map(rows.map((r) => [r.id, { ...r }]));
  const changed = new Set<string>();
  const linesChanged = new Set<string>();
  for (const patch of input.mcSettings) {
    const row = byId.get(patch._id);
    if (!row) throw apiError(LINES.mcNotFound);
    if (patch.name !== undefined && row.parentMcId === null) {
      const name = patch.name.trim();
      if (!name) throw apiError(LINES.nameEmpty);
      row.name = name;
    }
    if (patch.lines !== undefined) {
      if (patch.lines.length === 0) throw apiError(LINES.lineForEvery);
      if (patch.lines.length > 1) throw apiError(LINES.oneLine);
      row.lines = [...patch.lines];
      linesChanged.add(row.id);
    }
    if (patch.emailSubject !== undefined) row.emailSubject = patch.emailSubject ?? '';
    if (patch.emailContent !== undefined) row.emailContent = patch.emailContent ?? '';
    if (patch.isVisible !== undefined) row.isVisible = patch.isVisible;
    changed.add(row.id);
  }
  const holders = new Map<number, McRow>();
  // the rows the caller changed claim their lines first, so the message names the other MC
  const ordered = [...byId.values()].sort((a, b) => Number(changed.has(a.id)) - Number(changed.has(b.id)));
  for (const row of ordered) {
    for (const line of row.lines) {
      const other = holders.get(line);
      if (other) throw apiError(LINES.lineTaken, { line, name: other.name });
      holders.set(line, row);
    }
  }
  const statements = [...changed].map((id) => {
    const row = byId.get(id)!;
    return db
      .update(mcSettings)
      .set({ name: row.name, emailSubject: row.emailSubject, emailContent: row.emailContent, isVisible: row.isVisible })
      .where(and(eq(mcSettings.id, id), eq(mcSettings.userId, caller.id)));
  });
  if (!linesChanged.size) return statements;
  // every moved MC lets its lines go before any takes its new one (a swap), all in the same batch
  const moved = JSON.stringify([...linesChanged]);
  const lineWrites = [
    db.delete(mcLines).where(and(eq(mcLines.userId, caller.id), sql`${mcLines.mcSettingId} in (select value from json_each(${moved}))`)),
    ...[...linesChanged].flatMap((id) => byId.get(id)!.lines.map((line) => claimLine(db, caller.id, line, id))),
  ];
  return [...lineWrites, ...statements];
}

/**
 * POST /update/details: Save Settings for the caller's whole list at once; every change lands in
 * one batch. The key of `mc_lines` has the last word on lines: a save that loses a line to a
 * simultaneous one is checked again against what is stored then, and answers 409 naming the MC
 * that holds the line.
 */
export async function updateSettings(db: Db, caller: Caller, input: McUpdateInput) {
  for (let attempt = 1; ; attempt++) {
    const statements = await planUpdate(db, caller, input);
    if (!statements.length) break;
    try {
      await db.batch(statements as [(typeof statements)[0], ...(typeof statements)[number][]]);
      break;
    } catch (err) {
      if (!isLineTaken(err)) throw err;
      if (attempt >= LINE_ATTEMPTS) throw apiError(LINES.linesChanged);
    }
  }
  return { message: textOf(LINES.saved), mcSettings: await mySettings(db, caller) };
}

/**
 * DELETE /: the caller's own setting and its line. A lead's MC also goes from every agent's list
 * (their lines too) and from every filter's MC list, in one batch (all or nothing).
 */
export async function deleteSetting(db: Db, caller: Caller, settingId: string) {
  const row = await ownSetting(db, caller, settingId);
  if (row.parentMcId === null && isLead(caller)) {
    await db.batch([
      db.delete(mcLines).where(sql`${mcLines.mcSettingId} in (select id from mc_settings where parent_mc_id = ${row.id})`),
      db.delete(mcSettings).where(eq(mcSettings.parentMcId, row.id)),
      db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.mcId, row.id)),
      db.delete(mcLines).where(eq(mcLines.mcSettingId, row.id)),
      db.delete(mcSettings).where(eq(mcSettings.id, row.id)),
    ]);
  } else {
    await db.batch([db.delete(mcLines).where(eq(mcLines.mcSettingId, row.id)), db.delete(mcSettings).where(eq(mcSettings.id, row.id))]);
  }
  return { message: textOf(LINES.deleted) };
}

/**
 * POST /update/toggleVisibility: Show in DAT on or off. One statement flips the stored state and
 * answers the new one, so simultaneous toggles each flip once and report the state they set.
 */
export async function toggleVisibility(db: Db, caller: Caller, settingId: string) {
  const [row] = await db
    .update(mcSettings)
    .set({ isVisible: sql`not ${mcSettings.isVisible}` })
    .where(and(eq(mcSettings.id, settingId), eq(mcSettings.userId, caller.id)))
    .returning({ isVisible: mcSettings.isVisible });
  if (!row) throw apiError(LINES.mcNotFound);
  const isVisible = !!row.isVisible;
  return { message: textOf(isVisible ? LINES.shown : LINES.hidden), isVisible };
}
