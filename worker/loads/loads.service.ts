import { and, desc, eq } from 'drizzle-orm';
import { activeLoads, users } from '../db/schema';
import type { Caller, Db } from '../env';
import { ownMcSetting } from '../history/history.service';
import { GENERAL_MESSAGES } from '../lib/common-messages';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { textOf } from '../lib/messages';
import { teamIdOf } from '../lib/team';
import { LOAD_MESSAGES } from './loads.messages';
import { type ActiveLoadDto, type AddLoadInput, MAX_ACTIVE_LOADS } from './loads.schema';

const l = activeLoads;

const selection = {
  id: l.id,
  userId: l.userId,
  teamId: l.teamId,
  mcSettingId: l.mcSettingId,
  userName: users.name,
  brokerName: l.brokerName,
  origin: l.origin,
  dest: l.dest,
  loadDate: l.loadDate,
  reference: l.reference,
  board: l.board,
  date: l.date,
};

const toDto = (r: {
  id: string;
  userName: string | null;
  brokerName: string;
  origin: string;
  dest: string;
  loadDate: string;
  reference: string;
  board: ActiveLoadDto['board'];
  date: Date;
}): ActiveLoadDto => ({
  _id: r.id,
  parent: { name: r.userName ?? '' },
  brokerName: r.brokerName,
  origin: r.origin,
  dest: r.dest,
  loadDate: r.loadDate,
  reference: r.reference,
  board: r.board,
  date: r.date.toISOString(),
});

const list = (db: Db, where: ReturnType<typeof eq>) =>
  db.select(selection).from(l).leftJoin(users, eq(users.id, l.userId)).where(where).orderBy(desc(l.date), desc(l.id)).limit(MAX_ACTIVE_LOADS);

export async function myLoads(db: Db, caller: Caller): Promise<ActiveLoadDto[]> {
  return (await list(db, eq(l.userId, caller.id))).map(toDto);
}

export async function teamLoads(db: Db, caller: Caller): Promise<ActiveLoadDto[]> {
  return (await list(db, eq(l.teamId, caller.id))).map(toDto);
}

/** The owner, or the manager of the team it was logged in; anyone else 404. */
export async function deleteLoad(db: Db, caller: Caller, id: string) {
  const [row] = await db.select({ userId: l.userId, teamId: l.teamId }).from(l).where(eq(l.id, id)).limit(1);
  const allowed = row && (row.userId === caller.id || (caller.userType === 'manager' && row.teamId === caller.id));
  if (!allowed) throw apiError(LOAD_MESSAGES.notFound);
  await db.delete(l).where(eq(l.id, id));
  return { message: textOf(LOAD_MESSAGES.deleted) };
}

/** Idempotent on (caller, clientId) like the history log. */
export async function addLoad(db: Db, caller: Caller, input: AddLoadInput): Promise<{ created: boolean; load: ActiveLoadDto }> {
  const { date } = input;
  const setting = input.mcSettingId ? await ownMcSetting(db, caller, input.mcSettingId, LOAD_MESSAGES.mcNotFound) : null;
  const inserted = await db
    .insert(l)
    .values({
      id: randomId(),
      userId: caller.id,
      teamId: teamIdOf(caller),
      mcSettingId: setting?.id ?? null,
      brokerName: input.brokerName,
      origin: input.origin,
      dest: input.dest,
      loadDate: input.loadDate,
      reference: input.reference,
      board: input.board,
      date,
      clientId: input.clientId,
    })
    .onConflictDoNothing()
    .returning({ id: l.id });
  const [stored] = await db
    .select(selection)
    .from(l)
    .leftJoin(users, eq(users.id, l.userId))
    .where(and(eq(l.userId, caller.id), eq(l.clientId, input.clientId)))
    .limit(1);
  if (!stored) throw apiError(GENERAL_MESSAGES.somethingWrong);
  const created = inserted.length > 0;
  if (!created) {
    const same =
      stored.brokerName === input.brokerName && stored.origin === input.origin && stored.dest === input.dest && stored.mcSettingId === (setting?.id ?? null);
    if (!same) throw apiError(LOAD_MESSAGES.clientIdReused);
  }
  return { created, load: toDto(stored) };
}
