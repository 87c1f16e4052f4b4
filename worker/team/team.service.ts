import { and, asc, desc, eq, gte } from 'drizzle-orm';
import { callHistory, callHistoryHours, teamLines, teamSettings, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { sha256Hex } from '../lib/ids';
import { textOf } from '../lib/messages';
import { isLead, teamIdOf } from '../lib/team';
import { LINES_MESSAGES } from '../mc-settings/mc-settings.messages';
import { CONTACT_WINDOW, type TeamContactDto, type TeamContactsDto, type TeamSettingsDto, type TeamSettingsInput } from './team.schema';

/** The team's phone settings as stored (the defaults when the lead never saved any). */
export async function settingsOf(db: Db, teamId: string): Promise<Omit<TeamSettingsDto, 'canEdit'>> {
  const [[settings], lines] = await db.batch([
    db
      .select({
        dialer: teamSettings.dialer,
        dialerTemplate: teamSettings.dialerTemplate,
        contactMarkers: teamSettings.contactMarkers,
        contactWindowHours: teamSettings.contactWindowHours,
      })
      .from(teamSettings)
      .where(eq(teamSettings.teamId, teamId))
      .limit(1),
    db
      .select({ line: teamLines.line, callerNumber: teamLines.callerNumber, label: teamLines.label })
      .from(teamLines)
      .where(eq(teamLines.teamId, teamId))
      .orderBy(asc(teamLines.line)),
  ]);
  return {
    dialer: settings?.dialer ?? 'tel',
    dialerTemplate: settings?.dialerTemplate ?? '',
    lines,
    contactMarkers: settings?.contactMarkers ?? true,
    contactWindowHours: settings?.contactWindowHours ?? CONTACT_WINDOW.defaultHours,
  };
}

export async function teamSettingsFor(db: Db, caller: Caller): Promise<TeamSettingsDto> {
  return { ...(await settingsOf(db, teamIdOf(caller))), canEdit: isLead(caller) };
}

/** One batch, so of simultaneous saves the last wins whole: the lines never mix two saves. */
export async function saveTeamSettings(db: Db, caller: Caller, input: TeamSettingsInput) {
  const teamId = teamIdOf(caller);
  const now = new Date();
  const values = {
    dialer: input.dialer,
    dialerTemplate: input.dialerTemplate,
    contactMarkers: input.contactMarkers,
    contactWindowHours: input.contactWindowHours,
    updatedAt: now,
  };
  await db.batch([
    db
      .insert(teamSettings)
      .values({ teamId, ...values })
      .onConflictDoUpdate({ target: teamSettings.teamId, set: values }),
    db.delete(teamLines).where(eq(teamLines.teamId, teamId)),
    ...input.lines.map((l) => db.insert(teamLines).values({ teamId, line: l.line, callerNumber: l.callerNumber, label: l.label })),
  ]);
  return { message: textOf(LINES_MESSAGES.teamSaved), settings: await teamSettingsFor(db, caller) };
}

export async function callerNumberOfLine(db: Db, teamId: string, line: number): Promise<string> {
  const [row] = await db
    .select({ callerNumber: teamLines.callerNumber })
    .from(teamLines)
    .where(and(eq(teamLines.teamId, teamId), eq(teamLines.line, line)))
    .limit(1);
  return row?.callerNumber ?? '';
}

const HOUR_MS = 3_600_000;
/** At most this many contacts answer (the newest): a window of a very busy team stays small. */
export const MAX_TEAM_CONTACTS = 2000;

/**
 * The window starts on a whole hour, so its ETag is the team's per-hour counts of those hours
 * (`call_history_hours`, kept by triggers): a 304 reads about 13 small rows however big the history.
 */
export async function teamContacts(db: Db, caller: Caller, ifNoneMatch: string | undefined, now = Date.now()) {
  const teamId = teamIdOf(caller);
  const settings = await settingsOf(db, teamId);
  const fromHour = Math.floor((now - settings.contactWindowHours * HOUR_MS) / HOUR_MS);
  const hours = settings.contactMarkers
    ? await db
        .select({ hour: callHistoryHours.hour, calls: callHistoryHours.calls, emails: callHistoryHours.emails })
        .from(callHistoryHours)
        .where(and(eq(callHistoryHours.teamId, teamId), gte(callHistoryHours.hour, fromHour)))
        .orderBy(asc(callHistoryHours.hour))
    : [];
  const version = JSON.stringify([teamId, settings.contactMarkers, settings.contactWindowHours, fromHour, hours.map((h) => [h.hour, h.calls, h.emails])]);
  const etag = `"tc-${(await sha256Hex(version)).slice(0, 32)}"`;
  if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return { etag, notModified: true as const };
  const body: TeamContactsDto = { contactMarkers: settings.contactMarkers, contactWindowHours: settings.contactWindowHours, contacts: [] };
  if (settings.contactMarkers && hours.some((h) => h.calls + h.emails > 0)) {
    const h = callHistory;
    const rows = await db
      .select({
        userId: h.userId,
        by: users.name,
        kind: h.kind,
        at: h.callDate,
        line: h.line,
        mcName: h.mcName,
        brokerName: h.brokerName,
        contact: h.contact,
        origin: h.origin,
        dest: h.dest,
        loadDate: h.loadDate,
        board: h.board,
      })
      .from(h)
      .leftJoin(users, eq(users.id, h.userId))
      .where(and(eq(h.teamId, teamId), gte(h.callDate, new Date(fromHour * HOUR_MS))))
      .orderBy(desc(h.callDate))
      .limit(MAX_TEAM_CONTACTS * 2);
    const seen = new Set<string>();
    for (const r of rows) {
      const key = JSON.stringify([r.userId, r.kind, r.brokerName.toLowerCase(), r.contact, r.origin, r.dest, r.loadDate]);
      if (seen.has(key)) continue;
      seen.add(key);
      const contact: TeamContactDto = { ...r, by: r.by ?? '', at: r.at.getTime() };
      body.contacts.push(contact);
      if (body.contacts.length >= MAX_TEAM_CONTACTS) break;
    }
  }
  return { etag, notModified: false as const, body };
}
