import { and, eq, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../auth/auth.messages';
import { emailIsFree, endResetLinks, loginEmailKey, tokenMailStatements } from '../auth/auth.service';
import { accounts, users } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { keepSessionStatement, renewedToken } from '../lib/auth';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { isUniqueViolation } from '../lib/db';
import { apiError } from '../lib/errors';
import type { Language } from '../lib/languages';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { beginAttempt, countHit, LIMITS } from '../lib/rate-limit';
import { secrets } from '../lib/secrets';
import { enqueueMails, escapeHtml, type Mail, mailStatements } from '../mail/mailer';
import { mailText } from '../mail/texts';
import { USER_MESSAGES } from './users.schema';
import { live, managedUser, type UserRow } from './users.service';

/** A stolen token alone must not take the account; wrong passwords also count as failed logins, so this is no side door. */
async function checkCurrentPassword(env: Bindings, target: UserRow, currentPassword: string) {
  if (!currentPassword) throw apiError(USER_MESSAGES.currentPasswordEmpty);
  const attempt = await beginAttempt(env, [[`reauth:${target.id}`, LIMITS.reauthFailuresPerUser]], COMMON_MESSAGES.tooManyWrongPasswords);
  let ok = false;
  try {
    ok = await verifyPassword(currentPassword, target.passwordHash, secrets(env).pepper);
  } finally {
    await attempt.settle(!ok);
  }
  if (!ok) {
    await countHit(env, loginEmailKey(target.email), LIMITS.loginFailuresPerEmail);
    throw apiError(USER_MESSAGES.currentPasswordWrong);
  }
}

/** The notice to the old address after an e-mail change (OWASP: tell the owner of record), in the user's language. */
function emailChangedMail(oldEmail: string, newEmail: string, name: string, changedBy: 'self' | 'staff', language: Language): Mail {
  const texts = mailText(language);
  const paragraphs = [texts.hello(name), texts.emailChanged.changed(changedBy, oldEmail, newEmail), texts.emailChanged.warning];
  const text = `${paragraphs.join('\n\n')}\n`;
  const html = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  return { to: oldEmail, subject: texts.emailChanged.subject, text, html };
}

/** The change ends the user's sessions and reset links in one batch; one's own change gets a fresh token. */
export async function updateEmail(env: Bindings, control: Db, db: Db, caller: Caller, id: string, input: { newEmail: string; currentPassword: string }) {
  const target = await managedUser(db, caller, id);
  const isSelf = target.id === caller.id;
  if (isSelf) await checkCurrentPassword(env, target, input.currentPassword);
  const email = input.newEmail;
  if (email === target.email) return { message: 'Email updated' };
  await emailIsFree(control, email);
  // the directory first: there an e-mail is unique across every shard (a race: one wins, 409)
  await moveEmail(control, target.id, email);
  // the user's row, the end of its sessions and reset links, the new address's verification
  // token and mail, and the notice to the old address: one batch (the mails only if the change landed)
  const landed = sql`exists (select 1 from ${users} where ${users.id} = ${target.id} and ${users.email} = ${email})`;
  const verify = await tokenMailStatements(env, db, { id: target.id, email, language: target.language }, 'verify', landed);
  const notice = mailStatements(
    env,
    db,
    [{ ...emailChangedMail(target.email, email, target.name, isSelf ? 'self' : 'staff', target.language), kind: 'email_changed' }],
    landed,
  );
  let changed: { tokenVersion: number }[];
  try {
    [changed] = await db.batch([
      db
        .update(users)
        .set({ email, isEmailVerified: false, tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(and(eq(users.id, target.id), live))
        .returning({ tokenVersion: users.tokenVersion }),
      endResetLinks(db, target.id),
      // one's own change keeps the session it was made from (its token is renewed below)
      ...(isSelf ? [keepSessionStatement(db, caller.id, caller.sessionId)] : []),
      ...verify.statements,
      ...notice.statements,
    ]);
  } catch (err) {
    await moveEmail(control, target.id, target.email).catch((e: unknown) => console.error('restoring a directory e-mail failed', e));
    // two changes raced to one address: the unique index decided, and the batch rolled back
    if (isUniqueViolation(err, 'users.email')) throw apiError(AUTH_MESSAGES.emailTaken);
    throw err;
  }
  const [row] = changed;
  if (!row) {
    await moveEmail(control, target.id, target.email);
    throw apiError(COMMON_MESSAGES.userNotFound);
  }
  await enqueueMails(env, [...verify.mailIds, ...notice.ids]);
  const accessToken = isSelf ? await renewedToken(env, caller, row.tokenVersion) : undefined;
  return { message: 'Email updated. Please check the new address to verify it.', ...(accessToken ? { accessToken } : {}) };
}

export async function updatePassword(env: Bindings, db: Db, caller: Caller, id: string, input: { newPassword: string; currentPassword: string }) {
  const target = await managedUser(db, caller, id);
  const isSelf = target.id === caller.id;
  if (isSelf) await checkCurrentPassword(env, target, input.currentPassword);
  const passwordHash = await hashPassword(input.newPassword, secrets(env).pepper);
  const [[row]] = await db.batch([
    db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(and(eq(users.id, target.id), live))
      .returning({ tokenVersion: users.tokenVersion }),
    endResetLinks(db, target.id),
    // one's own change keeps the session it was made from (its token is renewed below)
    ...(isSelf ? [keepSessionStatement(db, caller.id, caller.sessionId)] : []),
  ]);
  if (!row) throw apiError(COMMON_MESSAGES.userNotFound);
  const accessToken = isSelf ? await renewedToken(env, caller, row.tokenVersion) : undefined;
  return { message: 'Password updated', ...(accessToken ? { accessToken } : {}) };
}

/** Sets a user's e-mail in the directory: 409 when a live account has it. */
async function moveEmail(control: Db, userId: string, email: string) {
  try {
    await control.update(accounts).set({ email }).where(eq(accounts.userId, userId));
  } catch (err) {
    if (isUniqueViolation(err, 'accounts.email')) throw apiError(AUTH_MESSAGES.emailTaken);
    throw err;
  }
}
