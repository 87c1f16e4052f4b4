import { type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { type MailKind, mailOutbox, mails } from '../db/schema';
import { type Bindings, type Db, isDevelopment } from '../env';
import { CONTROL } from '../lib/d1';
import { chunks } from '../lib/db';
import { randomId } from '../lib/ids';
import { providerOf } from './providers';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail about to be written: what it is, and an optional `ref` a batch's guard can read as `value ->> '$.ref.name'`. */
export interface MailDraft extends Mail {
  kind: MailKind;
  ref?: Record<string, string | number>;
}

export interface MailMessage {
  id: string;
}

/** The id names the shard that keeps its row (docs/decisions/0174-company-shards.md). */
const mailId = (db: Db) => (db.$shard && db.$shard !== CONTROL ? `${db.$shard}.${randomId()}` : randomId());

export function shardOfMail(id: string): string {
  const dot = id.indexOf('.');
  return dot > 0 && /^SHARD_[A-Z0-9_]+$/.test(id.slice(0, dot)) ? id.slice(0, dot) : CONTROL;
}

/** Mails per insert statement: one JSON parameter each, well under D1's statement and parameter sizes. */
const MAILS_PER_STATEMENT = 50;

/**
 * For the `db.batch()` of the change that causes them: the mail exists if and only if the change
 * landed. `guard` (over `value`, the draft as JSON) keeps out a mail an earlier call already recorded.
 */
export function mailStatements(
  env: Bindings,
  db: Db,
  drafts: readonly MailDraft[],
  guard?: SQL,
  now = new Date(),
): { statements: BatchItem<'sqlite'>[]; ids: string[] } {
  const rows = drafts.map((d) => ({ ...d, id: mailId(db) }));
  const keep = isDevelopment(env) || providerOf(env) === 'outbox';
  const statements: BatchItem<'sqlite'>[] = [];
  for (const chunk of chunks(rows, MAILS_PER_STATEMENT)) {
    const json = JSON.stringify(chunk.map((r) => ({ id: r.id, kind: r.kind, to: r.to, subject: r.subject, text: r.text, html: r.html, ref: r.ref ?? {} })));
    // drizzle's insert…select names every column of the table, in the table's order
    statements.push(
      db.insert(mails).select(sql`
        select value ->> 'id', value ->> 'kind', value ->> 'to', value ->> 'subject', value ->> 'text', value ->> 'html', 'pending',
          'mail/' || (value ->> 'id'), 0, null, ${now.getTime()}, ${now.getTime()}, null, null, null, null
        from json_each(${json}) where ${guard ?? sql`true`}`),
    );
    if (keep) {
      const ids = JSON.stringify(chunk.map((r) => r.id));
      statements.push(
        db
          .insert(mailOutbox)
          .select(sql`select id, "to", subject, text, html, ${now.getTime()} from ${mails} where id in (select value from json_each(${ids}))`),
      );
    }
  }
  return { statements, ids: rows.map((r) => r.id) };
}

/** A failure here loses nothing: the row stays pending and the sweeper re-sends its message. */
export async function enqueueMails(env: Bindings, ids: readonly string[], delaySeconds?: number): Promise<void> {
  if (!ids.length) return;
  try {
    for (const chunk of chunks(ids, 100)) {
      await env.MAIL_QUEUE.sendBatch(chunk.map((id) => ({ body: { id } satisfies MailMessage, ...(delaySeconds ? { delaySeconds } : {}) })));
    }
  } catch (err) {
    console.error(JSON.stringify({ event: 'mail.enqueue_failed', mails: ids.length, error: err instanceof Error ? err.message : String(err) }));
  }
}

/** Writes mails that no other change causes (none today but tests), then queues them. */
export async function queueMails(env: Bindings, db: Db, drafts: readonly MailDraft[]): Promise<string[]> {
  const { statements, ids } = mailStatements(env, db, drafts);
  if (statements.length) await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  await enqueueMails(env, ids);
  return ids;
}

/** Yerevan's calendar: a subscription ending at 23:00 UTC ends on the next day there. */
export const mailDay = (date: Date) => date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Yerevan' });

/** A moment as mails write it: "22 Jan 2027, 09:00 Yerevan time" (days left are calendar days on Yerevan's calendar, worker/lib/days-left.ts). */
export const mailMoment = (date: Date) =>
  `${mailDay(date)}, ${date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Yerevan' })} Yerevan time`;

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function linkMail(to: string, subject: string, intro: string, url: string): Mail {
  return {
    to,
    subject,
    text: `${intro}\n\n${url}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  };
}
