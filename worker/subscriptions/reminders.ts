import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { REMINDER_THRESHOLDS, subscriptionReminders, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { chunks, createDb, inJson } from '../lib/db';
import { forbidden } from '../lib/errors';
import { escapeHtml, type Mail, mailMoment, sendMail } from '../lib/mailer';
import { isStaff } from '../lib/permissions';
import { subscriptionOf } from '../lib/subscription';
import { visibleUser } from '../users/users.service';

const DAY = 86_400_000;
/** A reminder is due while fewer than this many days are left (days left 7 and under). */
const WINDOW_MS = (REMINDER_THRESHOLDS[0] + 1) * DAY;

/**
 * The reminder a user with `daysLeft` days left is due: the smallest threshold at or above it
 * (7 → 7, 5 → 7, 3 → 3, 2 → 3, 0 → 0), or null beyond the first. A daily run meets each threshold
 * on its day; a run that was missed, or a subscription bought with 5 days left, still gets the
 * reminder of the threshold it is under, once.
 */
export function thresholdFor(daysLeft: number): number | null {
  if (daysLeft < 0 || daysLeft > REMINDER_THRESHOLDS[0]) return null;
  return [...REMINDER_THRESHOLDS].reverse().find((t) => t >= daysLeft) ?? null;
}

const daysText = (n: number) => (n === 0 ? 'today' : `in ${n} day${n === 1 ? '' : 's'}`);
const base = (env: Bindings) => env.PUBLIC_URL.replace(/\/$/, '');

interface Due {
  id: string;
  name: string;
  email: string;
  userType: Caller['userType'];
  parentId: string | null;
  end: Date;
  daysLeft: number;
}

export function reminderMail(env: Bindings, user: Due): Mail {
  const subject = `Your FreightDesk subscription ends ${daysText(user.daysLeft)}`;
  const lines = [
    `Hello ${user.name},`,
    `Your FreightDesk subscription ends ${daysText(user.daysLeft)}, on ${mailMoment(user.end)}. After that only the Profile and Payment screens open until it is renewed.`,
    `Renew it on the Payment screen: ${base(env)}/payment/`,
    `You can turn these reminders off on your Profile: ${base(env)}/profile/`,
  ];
  return {
    to: user.email,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join(''),
  };
}

/** A manager's one digest of the agents whose reminders went out in this run. */
export function digestMail(env: Bindings, manager: { name: string; email: string }, agents: Due[]): Mail {
  const sorted = [...agents].sort((a, b) => a.end.getTime() - b.end.getTime());
  const row = (a: Due) => `${a.name} (${a.email}): ends ${daysText(a.daysLeft)}, on ${mailMoment(a.end)}`;
  const intro = `${sorted.length === 1 ? 'The subscription of one of your agents ends' : `The subscriptions of ${sorted.length} of your agents end`} soon:`;
  const outro = `Pay for several agents in one order on Pay for Team: ${base(env)}/payment/`;
  return {
    to: manager.email,
    subject: sorted.length === 1 ? "An agent's FreightDesk subscription ends soon" : `${sorted.length} of your agents' FreightDesk subscriptions end soon`,
    text: [`Hello ${manager.name},`, intro, sorted.map((a) => `- ${row(a)}`).join('\n'), outro].join('\n\n'),
    html: `<p>Hello ${escapeHtml(manager.name)},</p><p>${escapeHtml(intro)}</p><ul>${sorted.map((a) => `<li>${escapeHtml(row(a))}</li>`).join('')}</ul><p>${escapeHtml(outro.split(': ')[0]!)}: <a href="${base(env)}/payment/">${base(env)}/payment/</a></p>`,
  };
}

/**
 * The reminders job (the Cron Trigger in wrangler.toml, `scheduled` in worker/index.ts). Reads the
 * live users whose subscription ends within the next 8 days through `users_subscription_end`,
 * works out each one's threshold with the one days-left rule (`subscriptionOf`), and records
 * `(user, end date, threshold)` with ON CONFLICT DO NOTHING RETURNING: only the rows this run
 * landed are mailed, so a re-run, or two runs at once, send nothing twice. A user with the
 * reminders turned off or an unverified e-mail gets no mail (the row is still recorded); each
 * manager with reminders on gets one digest of its agents whose reminder landed in this run.
 */
export async function runReminders(env: Bindings, now = new Date()): Promise<{ reminders: number; digests: number }> {
  const db = createDb(env.DB);
  const t = now.getTime();
  const candidates = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      userType: users.userType,
      parentId: users.parentId,
      end: users.subscriptionEndDate,
      isEmailVerified: users.isEmailVerified,
      remindersEnabled: users.remindersEnabled,
    })
    .from(users)
    .where(and(gt(users.subscriptionEndDate, now), lt(users.subscriptionEndDate, new Date(t + WINDOW_MS)), isNull(users.deletedAt)));
  const due = new Map<string, Due & { threshold: number; mailed: boolean }>();
  for (const u of candidates) {
    if (!u.end || isStaff(u.userType)) continue;
    const daysLeft = subscriptionOf({ userType: u.userType, subscriptionEndDate: u.end }, t).subscriptionDaysLeft;
    const threshold = thresholdFor(daysLeft);
    if (threshold === null) continue;
    due.set(u.id, { ...u, end: u.end, daysLeft, threshold, mailed: u.remindersEnabled && u.isEmailVerified });
  }
  const landed: string[] = [];
  for (const chunk of chunks([...due.values()], 500)) {
    const rows = chunk.map((d) => ({ u: d.id, e: d.end.getTime(), t: d.threshold }));
    // one JSON parameter for the whole chunk
    const inserted = await db.all<{ user_id: string }>(sql`
      insert into ${subscriptionReminders} (user_id, end_date, threshold, sent_at)
      select value ->> 'u', value ->> 'e', value ->> 't', ${t} from json_each(${JSON.stringify(rows)}) where true
      on conflict do nothing
      returning user_id`);
    landed.push(...inserted.map((r) => r.user_id));
  }

  let reminders = 0;
  const byManager = new Map<string, Due[]>();
  for (const id of landed) {
    const user = due.get(id)!;
    if (user.mailed) {
      await sendMail(env, db, reminderMail(env, user));
      reminders++;
    }
    if (user.userType === 'agent' && user.parentId) byManager.set(user.parentId, [...(byManager.get(user.parentId) ?? []), user]);
  }
  let digests = 0;
  for (const ids of chunks([...byManager.keys()])) {
    const managers = await db
      .select({ id: users.id, name: users.name, email: users.email, remindersEnabled: users.remindersEnabled, isEmailVerified: users.isEmailVerified })
      .from(users)
      .where(and(inJson(users.id, ids), eq(users.userType, 'manager'), isNull(users.deletedAt)));
    for (const m of managers) {
      if (!m.remindersEnabled || !m.isEmailVerified) continue;
      await sendMail(env, db, digestMail(env, m, byManager.get(m.id)!));
      digests++;
    }
  }
  return { reminders, digests };
}

/** PUT /api/user/update/reminders/{id}: a user turns its own reminders on or off (the admin may for anyone). */
export async function setReminders(db: Db, caller: Caller, id: string, remindersEnabled: boolean) {
  const target = await visibleUser(db, caller, id);
  if (caller.userType !== 'admin' && target.id !== caller.id) throw forbidden('You are not allowed to change this user');
  await db.update(users).set({ remindersEnabled }).where(eq(users.id, target.id));
  return { message: remindersEnabled ? 'Reminders turned on' : 'Reminders turned off', remindersEnabled };
}
