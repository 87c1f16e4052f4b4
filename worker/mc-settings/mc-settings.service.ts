import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { brokerFilterMcs, mcSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { badRequest, conflict, notFound } from '../lib/errors';
import { randomId } from '../lib/ids';
import { inJson, runBatch } from '../lib/db';
import { isLead, teamIdOf, visibleIds } from '../lib/team';
import { lineTakenMessage, MC_MESSAGES, type McAddInput, type McSettingDto, type McUpdateInput } from './mc-settings.schema';

type McRow = typeof mcSettings.$inferSelect;
const parent = alias(mcSettings, 'parent_mc');

const selection = { row: mcSettings, parentName: parent.name };

function toDto(row: McRow, parentName: string | null): McSettingDto {
  return {
    _id: row.id,
    name: row.name,
    parentMc: row.parentMcId ? { _id: row.parentMcId, name: parentName ?? row.name } : null,
    lines: row.lines ?? [],
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
  return rows.map((r) => toDto(r.row, r.parentName));
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
  if (!owner) throw notFound(MC_MESSAGES.managerNotFound);
  return settingsWhere(db, and(eq(mcSettings.userId, parentId), isNull(mcSettings.parentMcId)));
}

async function ownSetting(db: Db, caller: Caller, settingId: string): Promise<McRow> {
  const [row] = await db
    .select()
    .from(mcSettings)
    .where(and(eq(mcSettings.id, settingId), eq(mcSettings.userId, caller.id)))
    .limit(1);
  if (!row) throw notFound(MC_MESSAGES.mcNotFound);
  return row;
}

/** Which of the caller's settings holds `line`, other than `exceptId`. */
async function lineHolder(db: Db, userId: string, line: number, exceptId?: string) {
  const rows = await db.select().from(mcSettings).where(eq(mcSettings.userId, userId));
  return rows.find((r) => r.id !== exceptId && (r.lines ?? []).includes(line));
}

/**
 * POST /add/: a lead adds an MC by name; an agent adds one of its manager's MCs (its name) with
 * its own line and templates. One line per MC, and a line is the user's only once: the insert
 * itself checks that no other setting of the user holds it (one statement, so two tabs adding at
 * once cannot both get the line).
 */
export async function addSetting(db: Db, caller: Caller, input: McAddInput) {
  const isAgent = !isLead(caller);
  const line = input.lines[0]!;
  let name = (input.name ?? '').trim();
  let parentMcId: string | null = null;
  if (isAgent) {
    const [parentMc] = await db
      .select()
      .from(mcSettings)
      .where(and(eq(mcSettings.id, input.parentMc!), eq(mcSettings.userId, teamIdOf(caller)), isNull(mcSettings.parentMcId)))
      .limit(1);
    if (!parentMc || caller.parentId === null) throw notFound(MC_MESSAGES.mcNotFound);
    const [already] = await db
      .select({ id: mcSettings.id })
      .from(mcSettings)
      .where(and(eq(mcSettings.userId, caller.id), eq(mcSettings.parentMcId, parentMc.id)))
      .limit(1);
    if (already) throw conflict(MC_MESSAGES.alreadyAdded);
    name = parentMc.name;
    parentMcId = parentMc.id;
  }
  const id = randomId();
  const now = Date.now();
  const result = await db.run(sql`
    insert into mc_settings (id, user_id, name, parent_mc_id, lines, email_subject, email_content, is_visible, created_at)
    select ${id}, ${caller.id}, ${name}, ${parentMcId}, ${JSON.stringify([line])}, ${input.emailSubject ?? ''}, ${input.emailContent ?? ''}, 1, ${now}
    where not exists (
      select 1 from mc_settings s, json_each(s.lines) l where s.user_id = ${caller.id} and l.value = ${line}
    ) and not exists (
      select 1 from mc_settings s where s.user_id = ${caller.id} and ${parentMcId} is not null and s.parent_mc_id = ${parentMcId}
    )`);
  if (!result.meta.changes) {
    const holder = await lineHolder(db, caller.id, line);
    if (holder) throw conflict(lineTakenMessage(line, holder.name));
    throw conflict(MC_MESSAGES.alreadyAdded);
  }
  const [dto] = await settingsWhere(db, eq(mcSettings.id, id));
  return { message: MC_MESSAGES.added, mcSetting: dto! };
}

/**
 * POST /update/details: Save Settings for the caller's whole list at once. Lines are checked on
 * the list as it will be after the save (so two MCs may swap lines in one save), then every
 * change lands in one batch.
 */
export async function updateSettings(db: Db, caller: Caller, input: McUpdateInput) {
  const rows = await db.select().from(mcSettings).where(eq(mcSettings.userId, caller.id));
  const byId = new Map(rows.map((r) => [r.id, { ...r }]));
  const changed = new Set<string>();
  for (const patch of input.mcSettings) {
    const row = byId.get(patch._id);
    if (!row) throw notFound(MC_MESSAGES.mcNotFound);
    if (patch.name !== undefined && row.parentMcId === null) {
      const name = patch.name.trim();
      if (!name) throw badRequest(MC_MESSAGES.nameEmpty);
      row.name = name;
    }
    if (patch.lines !== undefined) {
      if (patch.lines.length === 0) throw badRequest(MC_MESSAGES.lineForEvery);
      if (patch.lines.length > 1) throw badRequest(MC_MESSAGES.oneLine);
      row.lines = [...patch.lines];
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
    for (const line of row.lines ?? []) {
      const other = holders.get(line);
      if (other) throw conflict(lineTakenMessage(line, other.name));
      holders.set(line, row);
    }
  }
  const updates = [...changed].map((id) => {
    const row = byId.get(id)!;
    return db
      .update(mcSettings)
      .set({ name: row.name, lines: row.lines, emailSubject: row.emailSubject, emailContent: row.emailContent, isVisible: row.isVisible })
      .where(and(eq(mcSettings.id, id), eq(mcSettings.userId, caller.id)));
  });
  await runBatch(db, updates);
  return { message: MC_MESSAGES.saved, mcSettings: await mySettings(db, caller) };
}

/**
 * DELETE /: the caller's own setting. A lead's MC also goes from every agent's list and from
 * every filter's MC list, in one batch (all or nothing).
 */
export async function deleteSetting(db: Db, caller: Caller, settingId: string) {
  const row = await ownSetting(db, caller, settingId);
  if (row.parentMcId === null && isLead(caller)) {
    await db.batch([
      db.delete(mcSettings).where(eq(mcSettings.parentMcId, row.id)),
      db.delete(brokerFilterMcs).where(eq(brokerFilterMcs.mcId, row.id)),
      db.delete(mcSettings).where(eq(mcSettings.id, row.id)),
    ]);
  } else {
    await db.delete(mcSettings).where(eq(mcSettings.id, row.id));
  }
  return { message: MC_MESSAGES.deleted };
}

/** POST /update/toggleVisibility: Show in DAT on or off. */
export async function toggleVisibility(db: Db, caller: Caller, settingId: string) {
  await ownSetting(db, caller, settingId);
  const [row] = await db
    .update(mcSettings)
    .set({ isVisible: sql`not ${mcSettings.isVisible}` })
    .where(and(eq(mcSettings.id, settingId), eq(mcSettings.userId, caller.id)))
    .returning({ isVisible: mcSettings.isVisible });
  const isVisible = !!row?.isVisible;
  return { message: isVisible ? MC_MESSAGES.shown : MC_MESSAGES.hidden, isVisible };
}
