import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  brokerFilterAliases,
  brokerFilterEvents,
  brokerFilterNotes,
  brokerFilters,
  brokerVettingNotices,
  callHistoryArchive,
  callHistoryArchiveUsers,
  companies,
  companyHomes,
  emailTokens,
  extensionHealthReports,
  linkClickFlushes,
  links,
  mcSettings,
  subscriptionChanges,
  subscriptionReminders,
  teamLines,
  teamSettings,
  users,
} from '../db/schema';
import { newSession } from '../lib/auth';
import { allShards, d1Of, shardDb } from '../lib/d1';
import { companyHome } from '../lib/directory';
import { randomId } from '../lib/ids';
import { MOVED_TABLES } from '../shards/tables';
import { call, control, testEnv } from './helpers';

export const SEED_PASSWORD = 'demo12345';

export interface SeededCompany {
  companyId: string;
  shard: string;
  director: string;
  managers: string[];
  agents: string[];
}

/** A small demo company through POST /api/dev/seed (on the emptiest shard), with a row in every table the mover copies. */
export async function seedCompany(domain: string, size: Record<string, number> = {}): Promise<SeededCompany> {
  const res = await call('POST', '/api/dev/seed', {
    body: {
      teams: 2,
      agentsPerTeam: 2,
      mcsPerTeam: 2,
      filtersPerTeam: 12,
      historyRowsPerTeam: 40,
      historyDays: 5,
      loadsPerAgent: 2,
      payments: 1,
      linksPerManager: 2,
      ...size,
      emailDomain: domain,
      password: SEED_PASSWORD,
    },
  });
  expect(res.status, res.text).toBe(201);
  const seeded: SeededCompany = {
    companyId: res.body.companyId,
    shard: res.body.shard,
    director: res.body.director.email,
    managers: res.body.managers.map((m: { email: string }) => m.email),
    agents: res.body.agents.map((a: { email: string }) => a.email),
  };
  await fillEveryTable(seeded.companyId);
  return seeded;
}

/** Rows of the tables the seed leaves empty (tokens, reports, reminders, team desk, aliases, events, notes, click receipts, notices, archive ledger, sessions). */
export async function fillEveryTable(companyId: string) {
  const home = (await companyHome(testEnv, companyId, true))!;
  const db = home.db;
  const people = await db.select().from(users).where(eq(users.companyId, companyId));
  const manager = people.find((u) => u.userType === 'manager')!;
  const agent = people.find((u) => u.userType === 'agent')!;
  const [filter] = await db.select().from(brokerFilters).where(eq(brokerFilters.teamId, manager.id)).limit(1);
  const [link] = await db.select().from(links).where(eq(links.userId, manager.id)).limit(1);
  const now = new Date();
  await db.batch([
    db
      .insert(emailTokens)
      .values({ id: randomId(), userId: agent.id, kind: 'verify', tokenHash: randomId(40), email: agent.email, expiresAt: now, createdAt: now }),
    db.insert(extensionHealthReports).values({
      id: randomId(),
      sessionId: randomId(),
      userId: agent.id,
      hour: Math.floor(now.getTime() / 3_600_000),
      version: '1.0.0',
      layout: 'wide',
      rowsSeen: 40,
      unreadable: false,
      fields: '{}',
      createdAt: now,
    }),
    db.insert(subscriptionReminders).values({ userId: agent.id, endDate: now, threshold: 3, sentAt: now }),
    // a payment's change to the agent's end date (decision 0179): a replay after the move must find it applied
    db
      .insert(subscriptionChanges)
      .values({ id: `payment:${randomId()}:${agent.id}`, userId: agent.id, months: 1, days: 0, at: now, appliedAt: now, newEndDate: now }),
    db.insert(teamSettings).values({ teamId: manager.id, dialer: 'tel', updatedAt: now }),
    db.insert(teamLines).values({ teamId: manager.id, line: 1, callerNumber: '+13125550101', label: 'Main' }),
    db
      .insert(brokerFilterAliases)
      .values({ filterId: filter!.id, teamId: manager.id, alias: `Alias ${randomId(6)}`, normalAlias: `alias ${randomId(6).toLowerCase()}` }),
    db.insert(brokerFilterEvents).values({ id: randomId(), filterId: filter!.id, teamId: manager.id, actorId: manager.id, kind: 'noted', at: now }),
    db.insert(brokerFilterNotes).values({ id: randomId(), filterId: filter!.id, teamId: manager.id, authorId: manager.id, text: 'Pays in 30 days', at: now }),
    // an applied click flush's receipt (decision 0180): a retry after the move must find it
    db.insert(linkClickFlushes).values({ id: randomId(), at: now, linkId: link!.id }),
    db.insert(brokerVettingNotices).values({ key: `dot:${randomId(6)}`, seq: 1, userId: manager.id, mailId: randomId() }),
    // a month of the team's history in R2 (decision 0171): its ledger rows move with the team
    db.insert(callHistoryArchive).values({ teamId: manager.id, month: '2024-01', rows: 3, calls: 2, emails: 1, state: 'archived', archivedAt: now }),
    db.insert(callHistoryArchiveUsers).values([
      { userId: agent.id, month: '2024-01', teamId: manager.id, rows: 2 },
      { userId: manager.id, month: '2024-01', teamId: manager.id, rows: 1 },
    ]),
    (await newSession(testEnv, db, agent, 1, 'Chrome on Windows')).insert,
  ]);
}

/** The users of a company on a shard (deleted ones too). */
export async function companyUserIds(shard: string, companyId: string): Promise<string[]> {
  const rows = await shardDb(testEnv, shard).select({ id: users.id }).from(users).where(eq(users.companyId, companyId));
  return rows.map((r) => r.id).sort();
}

const selectOf = (spec: (typeof MOVED_TABLES)[number]) =>
  spec.via
    ? `select t.* from "${spec.table}" t where t."${spec.column}" in (select p."${spec.via.key}" from "${spec.via.table}" p where p."${spec.via.column}" in (select value from json_each(?1)))`
    : `select t.* from "${spec.table}" t where t."${spec.column}" in (select value from json_each(?1))`;

/** Every moved table's rows of these users on a shard, as sorted JSON per table: what a move must carry over unchanged. */
export async function rowsOf(shard: string, userIds: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const spec of MOVED_TABLES) {
    const { results } = await d1Of(testEnv, shard).prepare(selectOf(spec)).bind(JSON.stringify(userIds)).all<Record<string, unknown>>();
    out[spec.table] = results.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** How many rows of these users each moved table holds on a shard. */
export async function countsOf(shard: string, userIds: readonly string[]): Promise<Record<string, number>> {
  const rows = await rowsOf(shard, userIds);
  return Object.fromEntries(Object.entries(rows).map(([t, r]) => [t, r.length]));
}

/** The control plane's row of a company and its homes on every shard. */
export async function placementOf(companyId: string) {
  const [row] = await control.select().from(companies).where(eq(companies.id, companyId));
  const homes: Record<string, string> = {};
  for (const shard of allShards(testEnv)) {
    const [home] = await shardDb(testEnv, shard).select().from(companyHomes).where(eq(companyHomes.companyId, companyId));
    if (home) homes[shard] = home.state;
  }
  return { shard: row?.shard, state: row?.state, moveTo: row?.moveTo, homes };
}

/** Another shard than `shard` among the local ones. */
export const otherShard = (shard: string, not: readonly string[] = []) => allShards(testEnv).find((s) => s !== shard && s !== 'DB' && !not.includes(s))!;

/** An agent's own MC setting (the seed gives each agent one). */
export async function mcOf(shard: string, userId: string) {
  const [row] = await shardDb(testEnv, shard)
    .select({ id: mcSettings.id })
    .from(mcSettings)
    .where(and(eq(mcSettings.userId, userId)))
    .limit(1);
  return row!.id;
}
