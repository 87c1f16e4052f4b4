import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import { mails } from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { iso } from '../lib/db';
import { apiError } from '../lib/errors';
import { afterKey, contains, type PagedView, pageAcross } from '../lib/fan-out';
import { randomId } from '../lib/ids';
import { messageOf } from '../lib/messages';
import { log, userHash } from '../lib/observe';
import { type FailedMailDto, type FailedMailsPage, type FailedPageQuery, MAIL_MESSAGES } from './mail.schema';
import { enqueueMails } from './mailer';

/** The list's length: the newest this many (a longer list means the provider is down, which the total says). */
const LIST_LIMIT = 200;

const toFailedDto = (
  r: Pick<typeof mails.$inferSelect, 'id' | 'kind' | 'to' | 'subject' | 'attempts' | 'lastError' | 'createdAt' | 'failedAt'>,
): FailedMailDto => ({
  _id: r.id,
  kind: r.kind,
  to: r.to,
  subject: r.subject,
  attempts: r.attempts,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  failedAt: iso(r.failedAt),
});

/**
 * GET /api/mail/failed/page (docs/decisions/0187-paged-fan-out.md): failed mails a page at a time,
 * newest failure first (ties: the id, where GET /api/mail/failed uses the creation time), each
 * database asked for the page after the cursor; the total is every database's, summed.
 */
export async function failedMailsPage(env: Bindings, query: FailedPageQuery): Promise<FailedMailsPage> {
  const failedAt = sql<number>`coalesce(${mails.failedAt}, 0)`;
  const narrowed = and(eq(mails.status, 'failed'), query.q ? or(contains(mails.to, query.q), contains(mails.subject, query.q)) : undefined);
  const view: PagedView<typeof mails.$inferSelect> = {
    view: `failedMails:${query.q ?? ''}`,
    desc: true,
    key: (r) => [r.failedAt?.getTime() ?? 0, r.id],
    rows: (db, after, limit) =>
      db
        .select()
        .from(mails)
        .where(and(narrowed, afterKey(failedAt, mails.id, after, true)))
        .orderBy(desc(failedAt), desc(mails.id))
        .limit(limit),
    count: async (db) => ({ total: (await db.select({ n: count() }).from(mails).where(narrowed))[0]?.n ?? 0 }),
  };
  const page = await pageAcross(
    allShards(env).map((shard) => shardDb(env, shard)),
    view,
    query.limit,
    query.cursor,
  );
  return { items: page.items.map(toFailedDto), total: page.totals.total, next: page.next };
}

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
    mails: rows.map(toFailedDto),
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
