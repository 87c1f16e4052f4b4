import { eq } from 'drizzle-orm';
import { accounts, companies, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { shardDb } from '../lib/d1';
import { inJson } from '../lib/db';

/** Users named by rows that span companies (money in the control plane), read from their shards. */

/** Where each user lives now: its company and the company's shard, in one control-plane query. */
export async function homesOf(control: Db, userIds: readonly string[]): Promise<Map<string, { companyId: string; shard: string }>> {
  const homes = new Map<string, { companyId: string; shard: string }>();
  const ids = [...new Set(userIds)].filter(Boolean);
  if (!ids.length) return homes;
  const rows = await control
    .select({ userId: accounts.userId, companyId: accounts.companyId, shard: companies.shard })
    .from(accounts)
    .innerJoin(companies, eq(companies.id, accounts.companyId))
    .where(inJson(accounts.userId, ids));
  for (const r of rows) homes.set(r.userId, { companyId: r.companyId, shard: r.shard });
  return homes;
}

const PERSON = { id: users.id, name: users.name, email: users.email, language: users.language, deletedAt: users.deletedAt };
export type Person = { id: string; name: string; email: string; language: (typeof users.$inferSelect)['language']; deletedAt: Date | null };

/** `local` is read first: a team's payments name its own users, so the directory is asked only for the rest. */
export async function peopleByIds(env: Bindings, control: Db, ids: readonly string[], local?: Db): Promise<Map<string, Person>> {
  const people = new Map<string, Person>();
  const wanted = [...new Set(ids)].filter(Boolean);
  if (!wanted.length) return people;
  if (local) for (const p of await local.select(PERSON).from(users).where(inJson(users.id, wanted))) people.set(p.id, p);
  const rest = wanted.filter((id) => !people.has(id));
  if (!rest.length) return people;
  const byShard = new Map<string, string[]>();
  for (const [userId, home] of await homesOf(control, rest)) byShard.set(home.shard, [...(byShard.get(home.shard) ?? []), userId]);
  const found = await Promise.all([...byShard].map(([shard, userIds]) => shardDb(env, shard).select(PERSON).from(users).where(inJson(users.id, userIds))));
  for (const p of found.flat()) people.set(p.id, p);
  return people;
}
