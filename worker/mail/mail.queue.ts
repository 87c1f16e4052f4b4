import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { mails } from '../db/schema';
import { type Bindings, type Db, isDevelopment } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { log } from '../lib/observe';
import { enqueueMails, type MailMessage, shardOfMail } from './mailer';
import { sendThroughProvider } from './providers';

export const MAIL_QUEUE_NAME = 'freightdesk-mail';
export const MAIL_DEAD_LETTER_QUEUE_NAME = 'freightdesk-mail-dead';

/** How long one consumer holds a mail while it sends it: longer than any provider call takes. */
const LEASE_MS = 60_000;
/** A pending mail whose try is this overdue lost its queue message (a Worker killed after the write): the sweeper sends it again. */
export const SWEEP_AFTER_MS = 5 * 60_000;
const MAX_DELAY_SECONDS = 3600;
/** Sent mails keep their row (who, what, when) this long; their bodies are dropped at once. */
export const SENT_RETENTION_MS = 30 * 86_400_000;

/** Seconds before the next try after `attempts` tries: MAIL_RETRY_SECONDS (30), doubled each time, at most an hour. */
export function retryDelaySeconds(env: Pick<Bindings, 'MAIL_RETRY_SECONDS'>, attempts: number): number {
  const base = Number(env.MAIL_RETRY_SECONDS ?? '') || 30;
  return Math.min(MAX_DELAY_SECONDS, Math.round(base * 2 ** Math.max(0, attempts - 1)));
}

type Outcome = 'sent' | 'failed' | 'retry' | 'skipped';

/**
 * A lease taken by one conditional update keeps a message delivered twice (or re-sent by the
 * sweeper) from sending the mail twice; the provider gets the row's idempotency key.
 */
export async function deliverMail(env: Bindings, db: Db, id: string, now = Date.now()): Promise<{ outcome: Outcome; delaySeconds?: number }> {
  const [mail] = await db
    .update(mails)
    .set({ claimedUntil: new Date(now + LEASE_MS), attempts: sql`${mails.attempts} + 1` })
    .where(and(eq(mails.id, id), eq(mails.status, 'pending'), or(isNull(mails.claimedUntil), lte(mails.claimedUntil, new Date(now)))))
    .returning();
  if (!mail) return { outcome: 'skipped' };
  const result = await sendThroughProvider(env, { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, idempotencyKey: mail.idempotencyKey });
  const done = Date.now();
  if (result.ok) {
    if (result.provider === 'outbox' && isDevelopment(env)) console.log(`[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
    await db
      .update(mails)
      .set({ status: 'sent', sentAt: new Date(done), provider: result.provider, claimedUntil: null, lastError: null, text: '', html: '' })
      .where(eq(mails.id, id));
    log('info', { event: 'mail.sent', mailId: id, kind: mail.kind, provider: result.provider, attempts: mail.attempts });
    return { outcome: 'sent' };
  }
  if (result.permanent) {
    await markFailed(db, id, result.error, done);
    return { outcome: 'failed' };
  }
  const delaySeconds = retryDelaySeconds(env, mail.attempts);
  await db
    .update(mails)
    .set({ lastError: result.error, claimedUntil: null, nextAttemptAt: new Date(done + delaySeconds * 1000) })
    .where(eq(mails.id, id));
  log('warn', { event: 'mail.retry', mailId: id, kind: mail.kind, attempts: mail.attempts, delaySeconds, error: result.error });
  return { outcome: 'retry', delaySeconds };
}

/** The dead-letter state: out of tries (or refused for good), on the admin's Failed mails list until resent. */
async function markFailed(db: Db, id: string, error: string | null, now: number) {
  const [row] = await db
    .update(mails)
    .set({ status: 'failed', failedAt: new Date(now), claimedUntil: null, ...(error ? { lastError: error } : {}) })
    .where(and(eq(mails.id, id), eq(mails.status, 'pending')))
    .returning({ kind: mails.kind, lastError: mails.lastError, attempts: mails.attempts });
  if (row) log('error', { event: 'mail.failed', mailId: id, kind: row.kind, attempts: row.attempts, error: row.lastError });
}

export async function consumeMailBatch(batch: MessageBatch<MailMessage>, env: Bindings): Promise<void> {
  // a mail's row is in the database its id names
  const dbOf = (id: string) => shardDb(env, shardOfMail(id));
  if (batch.queue === MAIL_DEAD_LETTER_QUEUE_NAME) {
    // the main queue's last try failed: the mail is failed for good (it keeps its last error)
    for (const message of batch.messages) {
      await markFailed(dbOf(message.body.id), message.body.id, null, Date.now());
      message.ack();
    }
    return;
  }
  for (const message of batch.messages) {
    try {
      const { outcome, delaySeconds } = await deliverMail(env, dbOf(message.body.id), message.body.id);
      if (outcome === 'retry') message.retry({ delaySeconds });
      else message.ack();
    } catch (err) {
      // D1 or the runtime failed, not the provider: try again; the lease (if taken) runs out by itself
      log('error', {
        event: 'mail.consumer_error',
        mailId: message.body.id,
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      message.retry({ delaySeconds: retryDelaySeconds(env, message.attempts) });
    }
  }
}

/** A pending mail overdue by SWEEP_AFTER_MS lost its message; the lease keeps a merely late one from sending twice. */
export async function sweepMails(env: Bindings, now = Date.now()): Promise<{ requeued: number; purged: number }> {
  const total = { requeued: 0, purged: 0 };
  for (const shard of allShards(env)) {
    const swept = await sweepOne(env, shardDb(env, shard), now);
    total.requeued += swept.requeued;
    total.purged += swept.purged;
  }
  return total;
}

async function sweepOne(env: Bindings, db: Db, now: number): Promise<{ requeued: number; purged: number }> {
  const overdue = await db
    .update(mails)
    .set({ nextAttemptAt: new Date(now) })
    .where(
      sql`${mails.id} in (select ${mails.id} from ${mails} where ${mails.status} = 'pending' and ${mails.nextAttemptAt} < ${now - SWEEP_AFTER_MS} limit 500)`,
    )
    .returning({ id: mails.id });
  await enqueueMails(
    env,
    overdue.map((m) => m.id),
  );
  const purged = await db
    .delete(mails)
    .where(and(eq(mails.status, 'sent'), lt(mails.sentAt, new Date(now - SENT_RETENTION_MS))))
    .returning({ id: mails.id });
  if (overdue.length || purged.length) log('info', { event: 'mail.sweep', requeued: overdue.length, purged: purged.length });
  return { requeued: overdue.length, purged: purged.length };
}
