import { and, count, desc, eq, sql } from 'drizzle-orm';
import { mails } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { iso } from '../lib/db';
import { apiError } from '../lib/errors';
import { randomId } from '../lib/ids';
import { messageOf } from '../lib/messages';
import { log, userHash } from '../lib/observe';
import { type FailedMailDto, MAIL_MESSAGES } from './mail.schema';
import { enqueueMails } from './mailer';

/** The list's length: the newest this many (a longer list means the provider is down, which the total says). */
const LIST_LIMIT = 200;

/** GET /api/mail/failed: the mails that failed for good, newest first, with their last error. */
export async function listFailedMails(env: Bindings): Promise<{ total: number; mails: FailedMailDto[] }> {
  // every database keeps its own mails: the newest of each, merged
  const lists = await Promise.all(allShards(env).map((shard) => failedIn(shardDb(env, shard))));
  const rows = lists
    .flatMap((l) => l.rows)
    .sort((a, b) => (b.failedAt?.getTime() ?? 0) - (a.failedAt?.getTime() ?? 0) || b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, LIST_LIMIT);
  return {
    total: lists.reduce((sum, l) => sum + l.total, 0),
    mails: rows.map((r) => ({
      _id: r.id,
      kind: r.kind,
      to: r.to,
      subject: r.subject,
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: r.createdAt.toISOString(),
      failedAt: iso(r.failedAt),
    })),
  };
}

async function failedIn(db: Db) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: mails.id,
        kind: mails.kind,
        to: mails.to,
        subject: mails.subject,
        attempts: mails.attempts,
        lastError: mails.lastError,
        createdAt: mails.createdAt,
        failedAt: mails.failedAt,
      })
      .from(mails)
      .where(eq(mails.status, 'failed'))
      .orderBy(desc(mails.failedAt), desc(mails.createdAt))
      .limit(LIST_LIMIT),
    db.select({ n: count() }).from(mails).where(eq(mails.status, 'failed')),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A new idempotency key: the provider may remember the old one's refusal. Of two resends at once, one gets 409. */
export async function resendMail(env: Bindings, db: Db, id: string, adminId: string) {
  const now = new Date();
  const [row] = await db
    .update(mails)
    .set({
      status: 'pending',
      attempts: 0,
      failedAt: null,
      claimedUntil: null,
      nextAttemptAt: now,
      idempotencyKey: sql`'mail/' || ${mails.id} || '/' || ${randomId(8)}`,
    })
    .where(and(eq(mails.id, id), eq(mails.status, 'failed')))
    .returning({ id: mails.id, kind: mails.kind });
  if (!row) {
    const [exists] = await db.select({ id: mails.id }).from(mails).where(eq(mails.id, id)).limit(1);
    throw apiError(exists ? MAIL_MESSAGES.notFailed : MAIL_MESSAGES.notFound);
  }
  log('info', { event: 'mail.resend', mailId: id, kind: row.kind, by: await userHash(adminId) });
  await enqueueMails(env, [id]);
  return messageOf(MAIL_MESSAGES.resent);
}
