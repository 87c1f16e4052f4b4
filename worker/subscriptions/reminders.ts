import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { REMINDER_THRESHOLDS, subscriptionReminders, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { allShards, isFenceRefusal, shardDb } from '../lib/d1';
import { chunks, inJson, isUniqueViolation, runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import type { Language } from '../lib/languages';
import { isStaff } from '../lib/permissions';
import { activeCompanies, fenceFor } from '../lib/shards';
import { subscriptionOf } from '../lib/subscription';
import { enqueueMails, escapeHtml, type Mail, type MailDraft, mailStatements } from '../mail/mailer';
import { mailMomentIn, mailText } from '../mail/texts';
import { visibleUser } from '../users/users.service';

const DAY = 86_400_000;
/** A reminder is due while fewer than this many days are left (days left 7 and under). */
const WINDOW_MS = (REMINDER_THRESHOLDS[0] + 1) * DAY;

/** 7 → 7, 5 → 7, 3 → 3, 0 → 0: a missed run, or a purchase with 5 days left, still gets its reminder once. */
export function thresholdFor(daysLeft: number): number | null {
  if (daysLeft < 0 || daysLeft > REMINDER_THRESHOLDS[0]) return null;
  return [...REMINDER_THRESHOLDS].reverse().find((t) => t >= daysLeft) ?? null;
}

const base = (env: Bindings) => env.PUBLIC_URL.replace(/\/$/, '');

interface Due {
  id: string;
  name: string;
  email: string;
  userType: Caller['userType'];
  parentId: string | null;
  end: Date;
  daysLeft: number;
  language?: Language;
}

/** The user's own reminder, in the user's language (docs/decisions/0023-languages.md). */
export function reminderMail(env: Bindings, user: Due): Mail {
  const text = mailText(user.language);
  const when = text.inDays(user.daysLeft);
  const subject = text.reminderSubject(when);
  const lines = [
    text.hello(user.name),
    text.reminderBody(when, mailMomentIn(user.language, user.end)),
    text.reminderRenew(`${base(env)}/payment/`),
    text.reminderOff(`${base(env)}/profile/`),
  ];
  return {
    to: user.email,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join(''),
  };
}

/** A manager's one digest of the agents whose reminders went out in this run, in the manager's language. */
export function digestMail(env: Bindings, manager: { name: string; email: string; language?: Language }, agents: Due[]): Mail {
  const text = mailText(manager.language);
  const sorted = [...agents].sort((a, b) => a.end.getTime() - b.end.getTime());
  const row = (a: Due) => text.digest.row(a.name, a.email, text.inDays(a.daysLeft), mailMomentIn(manager.language, a.end));
  const intro = text.digest.intro(sorted.length);
  const url = `${base(env)}/payment/`;
  return {
    to: manager.email,
    subject: text.digest.subject(sorted.length),
    text: [text.hello(manager.name), intro, sorted.map((a) => `- ${row(a)}`).join('\n'), `${text.digest.payForTeam}: ${url}`].join('\n\n'),
    html: `<p>${escapeHtml(text.hello(manager.name))}</p><p>${escapeHtml(intro)}</p><ul>${sorted.map((a) => `<li>${escapeHtml(row(a))}</li>`).join('')}</ul><p>${escapeHtml(text.digest.payForTeam)}: <a href="${url}">${url}</a></p>`,
  };
}

/** Tries of a run whose batch met another run's rows (two runs at once): each try reads again. */
const RUN_TRIES = 5;

/**
 * The rows go in without ON CONFLICT, so a row another run recorded meanwhile fails the whole batch
 * and this run reads again: nothing is sent twice, and a mail exists exactly when its row does.
 */
export async function runReminders(env: Bindings, now = new Date()): Promise<{ reminders: number; digests: number }> {
  const t = now.getTime();
  const total = { reminders: 0, digests: 0 };
  // each shard on its own (docs/decisions/0174-company-shards.md)
  for (const shard of allShards(env)) {
    const db = shardDb(env, shard);
    for (let attempt = 1; ; attempt++) {
      try {
        const done = await remindOnce(env, db, t);
        total.reminders += done.reminders;
        total.digests += done.digests;
        break;
      } catch (err) {
        // another run recorded a reminder, or a company started moving since the read: read again
        if (attempt >= RUN_TRIES || !(isUniqueViolation(err, 'subscription_reminders.user_id') || isFenceRefusal(err))) throw err;
      }
    }
  }
  return total;
}

async function remindOnce(env: Bindings, db: Db, t: number): Promise<{ reminders: number; digests: number }> {
  const now = new Date(t);
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
      language: users.language,
      companyId: users.companyId,
    })
    .from(users)
    .where(and(gt(users.subscriptionEndDate, now), lt(users.subscriptionEndDate, new Date(t + WINDOW_MS)), isNull(users.deletedAt)));
  // a moving company's users wait for the next run (on their new shard)
  const active = await activeCompanies(db);
  const due: (Due & { threshold: number; mailed: boolean; companyId: string })[] = [];
  for (const u of candidates) {
    if (!u.end || isStaff(u.userType) || !active.has(u.companyId)) continue;
    const daysLeft = subscriptionOf({ userType: u.userType, subscriptionEndDate: u.end }, t).subscriptionDaysLeft;
    const threshold = thresholdFor(daysLeft);
    if (threshold === null) continue;
    due.push({ ...u, end: u.end, daysLeft, threshold, mailed: u.remindersEnabled && u.isEmailVerified });
  }
  // the ones an earlier run recorded
  const recorded = new Set<string>();
  for (const chunk of chunks(due, 500)) {
    const keys = JSON.stringify(chunk.map((d) => [d.id, d.end.getTime(), d.threshold]));
    const rows = await db.all<{ k: string }>(sql`
      select r.user_id || '/' || r.end_date || '/' || r.threshold as k from ${subscriptionReminders} r
      join json_each(${keys}) j on r.user_id = j.value ->> 0 and r.end_date = j.value ->> 1 and r.threshold = j.value ->> 2`);
    for (const r of rows) recorded.add(r.k);
  }
  const fresh = due.filter((d) => !recorded.has(`${d.id}/${d.end.getTime()}/${d.threshold}`));
  if (!fresh.length) return { reminders: 0, digests: 0 };

  const drafts: MailDraft[] = [];
  const byManager = new Map<string, Due[]>();
  for (const user of fresh) {
    if (user.mailed) drafts.push({ ...reminderMail(env, user), kind: 'reminder' });
    if (user.userType === 'agent' && user.parentId) byManager.set(user.parentId, [...(byManager.get(user.parentId) ?? []), user]);
  }
  const reminders = drafts.length;
  for (const ids of chunks([...byManager.keys()])) {
    const managers = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        remindersEnabled: users.remindersEnabled,
        isEmailVerified: users.isEmailVerified,
        language: users.language,
      })
      .from(users)
      .where(and(inJson(users.id, ids), eq(users.userType, 'manager'), isNull(users.deletedAt)));
    for (const m of managers) {
      if (!m.remindersEnabled || !m.isEmailVerified) continue;
      drafts.push({ ...digestMail(env, m, byManager.get(m.id)!), kind: 'digest' });
    }
  }
  const records = chunks(fresh, 500).map((chunk) => {
    const rows = JSON.stringify(chunk.map((d) => ({ u: d.id, e: d.end.getTime(), t: d.threshold })));
    // no ON CONFLICT: a row another run recorded since the read above fails the whole batch
    return db.insert(subscriptionReminders).select(sql`select value ->> 'u', value ->> 'e', value ->> 't', ${t} from json_each(${rows})`);
  });
  const mails = mailStatements(env, db, drafts, undefined, now);
  // the fence of every company written for: a company that started moving since the read fails the batch
  const fences = [...new Set(fresh.map((d) => d.companyId))].map((id) => fenceFor(db, id));
  await runBatch(db, [...fences, ...records, ...mails.statements] as BatchItem<'sqlite'>[]);
  await enqueueMails(env, mails.ids);
  return { reminders, digests: drafts.length - reminders };
}

/** PUT /api/user/update/reminders/{id}: a user turns its own reminders on or off (the admin may for anyone). */
export async function setReminders(db: Db, caller: Caller, id: string, remindersEnabled: boolean) {
  const target = await visibleUser(db, caller, id);
  if (caller.userType !== 'admin' && target.id !== caller.id) throw apiError(COMMON_MESSAGES.notAllowedUser);
  await db.update(users).set({ remindersEnabled }).where(eq(users.id, target.id));
  return { message: remindersEnabled ? 'Reminders turned on' : 'Reminders turned off', remindersEnabled };
}
