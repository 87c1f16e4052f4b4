import { and, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { subscriptionChanges, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { companyDb } from '../lib/d1';
import { inJson, runBatch } from '../lib/db';
import { extendSql, removeMonthsSql } from '../lib/subscription';
import { homesOf } from '../users/people';

/**
 * docs/decisions/0179-money-in-the-control-plane.md: each change is written once under its cause's id in
 * one fenced shard batch, so a replay moves nothing and a refused batch leaves nothing.
 */

/** One change of one user's end date. `months` < 0 takes months back (a refund); `days` adds whole days after the months. */
export interface SubscriptionChange {
  id: string;
  userId: string;
  months: number;
  days: number;
}

/** The change ids of each cause: a payment's line per user, a promo use, a refund. */
export const changeId = {
  payment: (paymentId: string, userId: string) => `payment:${paymentId}:${userId}`,
  promo: (useId: string) => `promo:${useId}`,
  refund: (refundId: string) => `refund:${refundId}`,
};

function statements(db: Db, changes: readonly SubscriptionChange[], at: Date, endTrial: boolean, now: Date): BatchItem<'sqlite'>[] {
  const ids = changes.map((c) => c.id);
  const rows = JSON.stringify(changes.map((c) => ({ i: c.id, u: c.userId, m: c.months, d: c.days })));
  const insert = db
    .insert(subscriptionChanges)
    .select(
      // every column, in the table's order
      sql`select value ->> 'i', value ->> 'u', value ->> 'm', value ->> 'd', ${at.getTime()}, null, null from json_each(${rows}) where true`,
    )
    .onConflictDoNothing();
  const unapplied = (id: string) =>
    sql`exists (select 1 from ${subscriptionChanges} where ${subscriptionChanges.id} = ${id} and ${subscriptionChanges.appliedAt} is null)`;
  const moves: BatchItem<'sqlite'>[] = [];
  const adding = changes.filter((c) => c.months >= 0);
  if (adding.length)
    moves.push(
      // every user by its own months and days, from the end date the row holds when this runs
      db
        .update(users)
        .set({
          subscriptionEndDate: sql`${extendSql(sql`"users"."subscription_end_date"`, sql`"subscription_changes"."months"`, sql`"subscription_changes"."days"`, at)}`,
          ...(endTrial ? { isTrialPeriod: false } : {}),
        })
        .from(subscriptionChanges)
        .where(
          and(
            inJson(
              subscriptionChanges.id,
              adding.map((c) => c.id),
            ),
            sql`"subscription_changes"."user_id" = "users"."id"`,
            isNull(subscriptionChanges.appliedAt),
          ),
        ),
    );
  for (const c of changes.filter((x) => x.months < 0))
    moves.push(
      db
        .update(users)
        .set({ subscriptionEndDate: sql`${removeMonthsSql(users.subscriptionEndDate, -c.months)}` })
        .where(and(sql`${users.id} = ${c.userId}`, unapplied(c.id))),
    );
  const mark = db
    .update(subscriptionChanges)
    .set({ appliedAt: now, newEndDate: sql`(select subscription_end_date from users where users.id = "subscription_changes"."user_id")` })
    .where(and(inJson(subscriptionChanges.id, ids), isNull(subscriptionChanges.appliedAt)))
    .returning({ userId: subscriptionChanges.userId, newEndDate: subscriptionChanges.newEndDate });
  return [insert, ...moves, mark];
}

/**
 * `endTrial`: a payment ends a trial, free months do not. Throws when any company's batch failed
 * (a moving company refuses it); the others are written, and a retry writes only what is missing.
 */
export async function applyChanges(
  env: Bindings,
  control: Db,
  changes: readonly SubscriptionChange[],
  opts: { at: Date; endTrial: boolean; known?: ReadonlyMap<string, { companyId: string; shard: string }> },
): Promise<Map<string, Date | null>> {
  const ends = new Map<string, Date | null>();
  if (!changes.length) return ends;
  const unknown = changes.map((c) => c.userId).filter((id) => !opts.known?.has(id));
  const homes = new Map([...(opts.known ?? []), ...(await homesOf(control, unknown))]);
  const byCompany = new Map<string, { shard: string; companyId: string; changes: SubscriptionChange[] }>();
  for (const c of changes) {
    const home = homes.get(c.userId);
    if (!home) continue;
    const key = `${home.shard}/${home.companyId}`;
    const group = byCompany.get(key) ?? { ...home, changes: [] };
    group.changes.push(c);
    byCompany.set(key, group);
  }
  const now = new Date();
  const outcomes = await Promise.allSettled(
    [...byCompany.values()].map(async (group) => {
      const db = companyDb(env, group.shard, group.companyId);
      const results = await runBatch(db, statements(db, group.changes, opts.at, opts.endTrial, now));
      const marked = results.at(-1) as { userId: string; newEndDate: Date | null }[];
      for (const m of marked) ends.set(m.userId, m.newEndDate);
      if (marked.length === group.changes.length) return;
      // some were written by an earlier run: their rows say what they left
      const written = await db
        .select({ userId: subscriptionChanges.userId, newEndDate: subscriptionChanges.newEndDate })
        .from(subscriptionChanges)
        .where(
          inJson(
            subscriptionChanges.id,
            group.changes.map((c) => c.id),
          ),
        );
      for (const w of written) ends.set(w.userId, w.newEndDate);
    }),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
  return ends;
}
