import { getTableColumns, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as z from 'zod';
import {
  accounts,
  activeLoads,
  brokerFilterContacts,
  brokerFilterMcs,
  brokerFilters,
  brokerFilterUsers,
  callHistory,
  linkClickStats,
  linkCodes,
  links,
  loginEvents,
  mcLines,
  mcSettings,
  payments,
  users,
} from '../../db/schema';
import type { Bindings, Db } from '../../env';
import { teamTypes } from '../../filters/filter-types.service';
import { chunks, MAX_PARAMS, runBatch } from '../../lib/db';
import { accountByEmail, newCompany, staffHome } from '../../lib/directory';
import { conflict } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { secrets } from '../../lib/secrets';
import { type KvLink, kvKey } from '../../links/links.service';
import { buildCompany, buildFilters, buildLinks, buildLoads, buildLogins, buildPayments, historySlices } from './builders';
import { makeRand } from './random';

/**
 * The demo company's size. Every field is optional; `npm run seed:demo` asks for the defaults,
 * the benchmarks for one big team (`filtersTeams: 1, filtersPerTeam: 20000, historyTeams: 1`).
 */
export const seedSchema = z.object({
  teams: z.number().int().min(1).max(50).optional().default(3),
  agentsPerTeam: z.number().int().min(0).max(200).optional().default(8),
  mcsPerTeam: z.number().int().min(1).max(6).optional().default(3),
  filtersPerTeam: z.number().int().min(0).max(50_000).optional().default(200),
  /** How many teams (the first ones) get filters; default all. */
  filtersTeams: z.number().int().min(0).max(50).optional(),
  historyRowsPerTeam: z.number().int().min(0).max(200_000).optional().default(20_000),
  /** A total instead of a per-team count, spread over the history teams. */
  historyRows: z.number().int().min(0).max(1_000_000).optional(),
  historyTeams: z.number().int().min(0).max(50).optional(),
  historyDays: z.number().int().min(1).max(365).optional().default(90),
  loadsPerAgent: z.number().int().min(0).max(50).optional().default(3),
  payments: z.number().int().min(0).max(200).optional().default(6),
  linksPerManager: z.number().int().min(0).max(50).optional().default(3),
  password: z.string().min(6).max(100).optional().default('demo12345'),
  /** Logins are director@<domain>, marketing@<domain>, manager1@<domain>, agent1.1@<domain>… */
  emailDomain: z
    .string()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/)
    .optional()
    .default('demo.example'),
  /** The random generator's seed: the same seed makes the same company (ids and dates aside). */
  seed: z.number().int().optional().default(42),
});
export type SeedInput = z.output<typeof seedSchema>;

const STATEMENTS_PER_BATCH = 400;

/** Inserts rows as multi-row statements within D1's 100 parameters each, sent in batches. */
async function insertAll<T extends SQLiteTable>(db: Db, table: T, rows: T['$inferInsert'][]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(getTableColumns(table)).length));
  const statements = chunks(rows, perStatement).map((part) => db.insert(table).values(part));
  for (const batch of chunks(statements, STATEMENTS_PER_BATCH)) await runBatch(db, batch);
}

/** Refuses with 409 when the company's director exists, so a second run changes nothing. */
export async function seedDemo(env: Bindings, control: Db, input: SeedInput) {
  const now = Date.now();
  const r = makeRand(input.seed);
  const directorEmail = `director@${input.emailDomain}`;
  if (await accountByEmail(control, directorEmail))
    throw conflict(`The demo company is already there (${directorEmail}); use another emailDomain for a second one`);

  // one hash for every demo user: PBKDF2 at 100,000 iterations is deliberately slow
  const company = buildCompany(r, input, await hashPassword(input.password, secrets(env).pepper), now);
  const { teams } = company;
  // the company on the emptiest shard, its marketing user with the staff (docs/decisions/0174)
  const home = await newCompany(env, control, new Date(now));
  const staff = await staffHome(env, control);
  const db = home.db;
  const placed = company.users.map((u) => ({ ...u, companyId: u.userType === 'marketing' ? staff.companyId : home.companyId }));
  await insertAll(
    control,
    accounts,
    placed.map((u) => ({ userId: u.id!, email: u.email, companyId: u.companyId, createdAt: new Date(now) })),
  );
  await insertAll(
    db,
    users,
    placed.filter((u) => u.companyId === home.companyId),
  );
  await insertAll(
    staff.db,
    users,
    placed.filter((u) => u.companyId === staff.companyId),
  );
  await insertAll(db, mcSettings, company.mcSettings);
  await insertAll(db, mcLines, company.mcLines);

  let filterCount = 0;
  for (const team of teams.slice(0, Math.min(input.filtersTeams ?? input.teams, input.teams))) {
    const types = await teamTypes(db, team.manager.id);
    if (!input.filtersPerTeam) continue;
    const built = buildFilters(
      r,
      team,
      types.map((t) => t.id),
      input.filtersPerTeam,
      now,
    );
    // the list rows first: each filter row's insert trigger then derives its lists once (migration 0017)
    await insertAll(db, brokerFilterMcs, built.mcs);
    await insertAll(db, brokerFilterUsers, built.members);
    await insertAll(db, brokerFilterContacts, built.contacts);
    await insertAll(db, brokerFilters, built.filters);
    filterCount += built.filters.length;
  }

  const historyTeams = Math.min(input.historyTeams ?? input.teams, input.teams);
  const perTeam = input.historyRows !== undefined ? Math.ceil(input.historyRows / Math.max(1, historyTeams)) : input.historyRowsPerTeam;
  let historyCount = 0;
  for (const team of teams.slice(0, historyTeams)) {
    for (const rows of historySlices(r, team, perTeam, input.historyDays, now)) {
      await insertAll(db, callHistory, rows);
      historyCount += rows.length;
    }
  }

  const loadRows = buildLoads(r, teams, input.loadsPerAgent, now);
  await insertAll(db, activeLoads, loadRows);

  const paymentRows = buildPayments(r, teams, input.payments, Number.parseInt(env.MONTHLY_PRICE_AMD, 10) || 5000, now);
  // money lives in the control plane
  await runBatch(
    control,
    paymentRows.map((row) =>
      control.insert(payments).values({ ...row, globalIndex: sql`(select coalesce(max(${payments.globalIndex}), 0) + 1 from ${payments})` }),
    ),
  );

  // short links: their codes in the control plane's directory, the rows in the company's shard,
  // the KV entries the redirect reads, and some click history (docs/decisions/0180-links-on-shards.md)
  const linked = buildLinks(r, teams, input.linksPerManager, now);
  await insertAll(
    control,
    linkCodes,
    linked.links.map((l) => ({ code: l.code, linkId: l.id!, userId: l.userId, claimedAt: new Date(now) })),
  );
  await insertAll(db, links, linked.links);
  await insertAll(db, linkClickStats, linked.stats);
  await Promise.all(
    linked.links.map((l) => env.LINKS_KV.put(kvKey(l.code), JSON.stringify({ id: l.id!, from: l.from, disabled: false, co: home.companyId } satisfies KvLink))),
  );

  const loginRows = buildLogins(r, teams, now);
  await insertAll(db, loginEvents, loginRows);

  return {
    message: 'Demo company created',
    companyId: home.companyId,
    shard: home.shard,
    password: input.password,
    director: { email: company.director.email, name: company.director.name },
    marketing: { email: company.marketing.email, name: company.marketing.name },
    managers: teams.map((t) => ({ email: t.manager.email, name: t.manager.name, agents: t.agents.length })),
    agents: teams.flatMap((t) => t.agents.map((a) => ({ email: a.email, name: a.name, manager: t.manager.email }))),
    // the first team holds the most data: the benchmarks log in as its manager
    benchManager: teams[0]!.manager.email,
    counts: {
      users: company.users.length,
      mcSettings: company.mcSettings.length,
      filters: filterCount,
      history: historyCount,
      activeLoads: loadRows.length,
      payments: paymentRows.length,
      confirmedPayments: input.payments,
      links: linked.links.length,
      loginEvents: loginRows.length,
    },
    ms: Date.now() - now,
  };
}
