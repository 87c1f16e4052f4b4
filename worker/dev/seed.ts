import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as z from 'zod';
import {
  activeLoads,
  brokerFilterContacts,
  brokerFilterMcs,
  brokerFilters,
  brokerFilterUsers,
  callHistory,
  linkClickStats,
  links,
  loginEvents,
  mcLines,
  mcSettings,
  payments,
  users,
} from '../db/schema';
import type { Bindings, Db } from '../env';
import { teamTypes } from '../filters/filter-types.service';
import { conflict } from '../lib/errors';
import { randomId } from '../lib/ids';
import { hashPassword } from '../lib/passwords';
import { secrets } from '../lib/secrets';
import { CODE_LENGTH, type KvLink, kvKey } from '../links/links.service';

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
  /** Logins are director@<domain>, manager1@<domain>, agent1.1@<domain>… */
  emailDomain: z
    .string()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/)
    .optional()
    .default('demo.example'),
  /** The random generator's seed: the same seed makes the same company (ids and dates aside). */
  seed: z.number().int().optional().default(42),
});
export type SeedInput = z.output<typeof seedSchema>;

const DAY = 86_400_000;

// ---------- a small seeded generator, so a benchmark's data is the same every run ----------
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = ReturnType<typeof makeRand>;
function makeRand(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chance = (p: number) => next() < p;
  const some = <T>(list: readonly T[], min: number, max: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, Math.min(copy.length, int(min, max)));
  };
  return { next, int, pick, chance, some };
}

// ---------- the words the company is made of ----------
const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Mason',
  'Sophia',
  'Lucas',
  'Mia',
  'Ethan',
  'Isabella',
  'Logan',
  'Amelia',
  'James',
  'Harper',
  'Aiden',
  'Evelyn',
  'Carter',
  'Abigail',
  'Jackson',
  'Emily',
  'Levi',
  'Ella',
  'Mateo',
  'Aria',
  'Daniel',
  'Scarlett',
  'Henry',
  'Grace',
  'Owen',
  'Chloe',
  'Wyatt',
  'Lily',
  'Gabriel',
  'Nora',
  'Julian',
  'Zoe',
  'Leo',
  'Hannah',
  'Isaac',
  'Anna',
  'David',
  'Lucy',
  'Samuel',
  'Maya',
  'Armen',
  'Ani',
  'Tigran',
  'Lilit',
  'Narek',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Petrosyan',
  'Grigoryan',
  'Hakobyan',
  'Sargsyan',
  'Harutyunyan',
];
const BROKERS = [
  'Total Quality Logistics',
  'Coyote Logistics',
  'C.H. Robinson',
  'Echo Global Logistics',
  'RXO',
  'Landstar',
  'Arrive Logistics',
  'Schneider Logistics',
  'J.B. Hunt Transport',
  'Uber Freight',
  'Werner Logistics',
  'Hub Group',
  'GlobalTranz',
  'Mode Transportation',
  'Allen Lund Company',
  'BlueGrace Logistics',
  'Nolan Transportation Group',
  'Sunteck Transport',
  'Armstrong Transport Group',
  'England Logistics',
  'Worldwide Express',
  'Redwood Logistics',
  'Capstone Logistics',
  'Access America Transport',
  'Transfix',
  'Covenant Logistics',
  'Trailer Bridge',
  'Kirsch Transportation',
  'Axle Logistics',
  'MoLo Solutions',
  'Emerge Freight',
  'PLS Logistics',
  'Becker Logistics',
  'Spot Freight',
  'Integrity Express Logistics',
  'ATS Logistics',
  'Surge Transportation',
  'Matson Logistics',
  'Cardinal Logistics',
  'Bennett International',
];
const NAME_A = [
  'Summit',
  'Prairie',
  'Blue Ridge',
  'Lone Star',
  'Great Lakes',
  'Pacific',
  'Atlantic',
  'Keystone',
  'Heartland',
  'Red Rock',
  'Silver State',
  'Gulf Coast',
  'Frontier',
  'Granite',
  'Liberty',
  'Pioneer',
  'Eagle',
  'Patriot',
  'Cascade',
  'Sierra',
  'Magnolia',
  'Bluegrass',
  'Cornerstone',
  'Iron Horse',
  'Northstar',
  'Sunbelt',
  'Midwest',
  'Tri-State',
  'Coastal',
  'Evergreen',
  'Horizon',
  'Canyon',
  'Delta',
  'Harbor',
  'Meridian',
  'Redwood',
  'Timberline',
  'Velocity',
  'Apex',
  'Crossroads',
];
const NAME_B = [
  'Freight',
  'Logistics',
  'Transport',
  'Brokerage',
  'Shipping',
  'Cargo',
  'Carriers',
  'Express',
  'Supply Chain',
  'Distribution',
  'Haulage',
  'Dispatch',
  'Moving',
  'Lines',
  'Trucking',
];
const NAME_C = ['LLC', 'Inc', 'Group', 'Co', 'Partners', 'Solutions', 'Services', ''];
const CARRIERS = [
  'Swift Haul',
  'Prairie Wind Trucking',
  'Blue Ridge Carriers',
  'Red Rock Transport',
  'Lone Star Freightways',
  'Great Lakes Express',
  'Iron Horse Hauling',
  'Silver State Lines',
  'Northstar Carriers',
  'Cascade Freight',
  'Granite Road Trucking',
  'Magnolia Transport',
];
const CITIES = [
  'Chicago, IL',
  'Dallas, TX',
  'Atlanta, GA',
  'Los Angeles, CA',
  'Houston, TX',
  'Phoenix, AZ',
  'Denver, CO',
  'Memphis, TN',
  'Indianapolis, IN',
  'Columbus, OH',
  'Nashville, TN',
  'Kansas City, MO',
  'Charlotte, NC',
  'Jacksonville, FL',
  'Miami, FL',
  'Laredo, TX',
  'Louisville, KY',
  'Salt Lake City, UT',
  'Reno, NV',
  'Seattle, WA',
  'Portland, OR',
  'Sacramento, CA',
  'Fresno, CA',
  'Ontario, CA',
  'El Paso, TX',
  'Oklahoma City, OK',
  'St. Louis, MO',
  'Minneapolis, MN',
  'Detroit, MI',
  'Cleveland, OH',
  'Pittsburgh, PA',
  'Harrisburg, PA',
  'Newark, NJ',
  'Allentown, PA',
  'Baltimore, MD',
  'Richmond, VA',
  'Savannah, GA',
  'Birmingham, AL',
  'Little Rock, AR',
  'Omaha, NE',
];
const STREETS = [
  'Main St',
  'Industrial Pkwy',
  'Commerce Dr',
  'Logistics Blvd',
  'Freight Ave',
  'Warehouse Rd',
  'Distribution Way',
  'Oak St',
  'Elm St',
  'Airport Rd',
  'Harbor Dr',
  'Rail Yard Rd',
];
const COMMENTS = [
  'Quick pay available, 2% fee',
  'Pays in 30 days',
  'Always asks for tracking every 2 hours',
  'Good rates on reefer loads',
  'Do not book: double brokered in the past',
  'Needs MC older than 2 years',
  'Slow to send rate confirmations',
  'Great dispatcher, ask for Mike',
  'Detention paid after 2 hours',
  'Only books with factoring companies on their list',
  'Lumper fees reimbursed',
  'Strict on appointment times',
  '',
  '',
  '',
];
const SUBJECT = 'Load {origin} → {dest} on {loadDate}';
const CONTENT = 'Hello,\n\nIs this load still available? We have a truck nearby and can pick it up on time.\n\nThank you,\n{name}';

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const personName = (r: Rand) => `${r.pick(FIRST)} ${r.pick(LAST)}`;
const phone = (r: Rand) => `+1 (${r.int(201, 989)}) 555-${String(r.int(100, 9999)).padStart(4, '0')}`;
const brokerEmail = (r: Rand, broker: string) =>
  `${r.pick(['dispatch', 'loads', 'ops', 'carriers', 'booking'])}@${slug(broker.split(/\s+/).slice(0, 2).join(''))}.example`;
const address = (r: Rand, city = r.pick(CITIES)) => `${r.int(100, 9899)} ${r.pick(STREETS)}, ${city}`;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A US business hour (13:00–23:00 UTC) on a day `daysAgo` back, weekdays far likelier; never in the future. */
function contactTime(r: Rand, now: number, days: number): number {
  for (;;) {
    const daysAgo = r.int(0, days - 1);
    const day = new Date(now - daysAgo * DAY);
    const weekday = day.getUTCDay();
    if ((weekday === 0 || weekday === 6) && r.chance(0.85)) continue;
    day.setUTCHours(r.int(13, 22), r.int(0, 59), r.int(0, 59), r.int(0, 999));
    const t = day.getTime();
    if (t < now) return t;
  }
}

// ---------- bulk inserts within D1's limits ----------
/** D1 allows at most 100 bound parameters per statement. */
const MAX_PARAMS = 100;
const STATEMENTS_PER_BATCH = 400;

/** Inserts rows as multi-row statements of under 100 parameters each, sent in batches. */
async function insertAll<T extends SQLiteTable>(db: Db, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (!rows.length) return;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(getTableColumns(table)).length));
  const statements = [];
  for (let i = 0; i < rows.length; i += perStatement) statements.push(db.insert(table).values(rows.slice(i, i + perStatement)));
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const chunk = statements.slice(i, i + STATEMENTS_PER_BATCH);
    await db.batch(chunk as [(typeof chunk)[0], ...(typeof chunk)[number][]]);
  }
}

interface SeedUser {
  id: string;
  email: string;
  name: string;
}
interface SeedTeam {
  manager: SeedUser;
  agents: SeedUser[];
  /** The manager's MCs. */
  mcs: { id: string; name: string }[];
  /** For each user, its settings: the manager's own MCs, an agent's settings pointing at them. */
  settingsOf: Map<string, { id: string; name: string }[]>;
}

/**
 * POST /api/dev/seed (development only): a whole demo company. Refuses with 409 when the
 * company's director already exists, so a second run changes nothing.
 */
export async function seedDemo(env: Bindings, db: Db, input: SeedInput) {
  const started = Date.now();
  const now = started;
  const r = makeRand(input.seed);
  const domain = input.emailDomain;
  const directorEmail = `director@${domain}`;
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, directorEmail), isNull(users.deletedAt)))
    .limit(1);
  if (existing) throw conflict(`The demo company is already there (${directorEmail}); use another emailDomain for a second one`);

  // one hash for every demo user: PBKDF2 at 100,000 iterations is deliberately slow
  const passwordHash = await hashPassword(input.password, secrets(env).pepper);
  const userRows: (typeof users.$inferInsert)[] = [];
  const addUser = (u: {
    email: string;
    name: string;
    userType: 'director' | 'manager' | 'agent';
    parentId: string | null;
    daysAgo: number;
    subscriptionDays: number;
  }) => {
    const row = {
      id: randomId(),
      name: u.name,
      email: u.email,
      passwordHash,
      userType: u.userType,
      isEmailVerified: true,
      isTrialPeriod: false,
      subscriptionEndDate: new Date(now + u.subscriptionDays * DAY),
      registrationDate: new Date(now - u.daysAgo * DAY),
      parentId: u.parentId,
      phone: phone(r).replace(/[^\d+]/g, ''),
      country: 'US',
      tokenVersion: 0,
      deletedAt: null,
    };
    userRows.push(row);
    return { id: row.id, email: row.email, name: row.name };
  };

  const director = addUser({ email: directorEmail, name: personName(r), userType: 'director', parentId: null, daysAgo: 400, subscriptionDays: 365 });
  const teams: SeedTeam[] = [];
  const mcRows: (typeof mcSettings.$inferInsert)[] = [];
  const lineRows: (typeof mcLines.$inferInsert)[] = [];
  const carriers = r.some(CARRIERS, CARRIERS.length, CARRIERS.length);
  for (let t = 1; t <= input.teams; t++) {
    const manager = addUser({
      email: `manager${t}@${domain}`,
      name: personName(r),
      userType: 'manager',
      parentId: director.id,
      daysAgo: 300,
      subscriptionDays: 365,
    });
    const agents: SeedUser[] = [];
    for (let a = 1; a <= input.agentsPerTeam; a++) {
      // the last agent of each team is about to expire, so the banner shows up in the demo
      const subscriptionDays = a === input.agentsPerTeam && a > 1 ? 5 : 365;
      agents.push(
        addUser({ email: `agent${t}.${a}@${domain}`, name: personName(r), userType: 'agent', parentId: manager.id, daysAgo: r.int(20, 250), subscriptionDays }),
      );
    }
    const mcs = Array.from({ length: input.mcsPerTeam }, (_, i) => ({
      id: randomId(),
      name: `${carriers[(t * 3 + i) % carriers.length]} (MC ${r.int(100_000, 999_999)})`,
    }));
    const settingsOf = new Map<string, { id: string; name: string }[]>();
    const created = (n: number) => new Date(now - (250 - n) * DAY);
    for (const [i, mc] of mcs.entries()) {
      mcRows.push({
        id: mc.id,
        userId: manager.id,
        name: mc.name,
        parentMcId: null,
        emailSubject: SUBJECT,
        emailContent: CONTENT,
        isVisible: true,
        createdAt: created(i),
      });
      lineRows.push({ userId: manager.id, line: i + 1, mcSettingId: mc.id });
    }
    settingsOf.set(manager.id, mcs);
    for (const agent of agents) {
      const own = mcs.map((mc, i) => {
        const id = randomId();
        mcRows.push({
          id,
          userId: agent.id,
          name: mc.name,
          parentMcId: mc.id,
          emailSubject: SUBJECT,
          emailContent: CONTENT,
          isVisible: r.chance(0.9),
          createdAt: created(10 + i),
        });
        lineRows.push({ userId: agent.id, line: i + 1, mcSettingId: id });
        return { id, name: mc.name };
      });
      settingsOf.set(agent.id, own);
    }
    teams.push({ manager, agents, mcs, settingsOf });
  }
  await insertAll(db, users, userRows);
  await insertAll(db, mcSettings, mcRows);
  await insertAll(db, mcLines, lineRows);

  // ---- filter types and filters ----
  const filtersTeams = Math.min(input.filtersTeams ?? input.teams, input.teams);
  let filterCount = 0;
  for (const team of teams.slice(0, filtersTeams)) {
    const types = await teamTypes(db, team.manager.id);
    if (!input.filtersPerTeam) continue;
    const filterRows: (typeof brokerFilters.$inferInsert)[] = [];
    const mcLinks: (typeof brokerFilterMcs.$inferInsert)[] = [];
    const userLinks: (typeof brokerFilterUsers.$inferInsert)[] = [];
    const contacts: (typeof brokerFilterContacts.$inferInsert)[] = [];
    const members = [team.manager, ...team.agents];
    const names = new Set<string>();
    for (let i = 0; i < input.filtersPerTeam; i++) {
      let name = i < BROKERS.length ? BROKERS[i]! : `${r.pick(NAME_A)} ${r.pick(NAME_B)} ${r.pick(NAME_C)}`.trim();
      if (names.has(name)) name = `${name} ${r.pick(CITIES).split(',')[0]}`;
      while (names.has(name)) name = `${name} ${r.int(2, 99)}`;
      names.add(name);
      const byAgent = team.agents.length > 0 && r.chance(0.3);
      const creator = byAgent ? r.pick(team.agents) : team.manager;
      const onlyCreator = byAgent && r.chance(0.4);
      const allMc = r.chance(0.4);
      const id = randomId();
      const created = now - Math.round(((input.filtersPerTeam - i) / input.filtersPerTeam) * 180 * DAY);
      filterRows.push({
        id,
        teamId: team.manager.id,
        creatorId: creator.id,
        name,
        typeId: r.chance(0.1) ? '-1' : r.pick(types).id,
        comment: r.pick(COMMENTS),
        isVisible: r.chance(0.9),
        isVerified: !byAgent || r.chance(0.7),
        onlyCreator,
        allMc,
        onlyOnContacts: false,
        newUsers: !onlyCreator && r.chance(0.5),
        index: i + 1,
        createdAt: new Date(created),
        updatedAt: new Date(created),
      });
      if (!allMc) for (const mc of r.some(team.mcs, 1, 2)) mcLinks.push({ filterId: id, mcId: mc.id });
      if (!onlyCreator) for (const u of r.some(members, 2, 6)) userLinks.push({ filterId: id, userId: u.id });
      const own = new Set<string>();
      for (let c = r.int(0, 2); c > 0; c--) own.add(own.size === 0 && r.chance(0.6) ? phone(r).replace(/[^\d+]/g, '') : brokerEmail(r, name));
      for (const [position, contact] of [...own].entries()) contacts.push({ filterId: id, contact, position });
    }
    await insertAll(db, brokerFilters, filterRows);
    await insertAll(db, brokerFilterMcs, mcLinks);
    await insertAll(db, brokerFilterUsers, userLinks);
    await insertAll(db, brokerFilterContacts, contacts);
    filterCount += filterRows.length;
  }

  // ---- contact history ----
  const historyTeams = Math.min(input.historyTeams ?? input.teams, input.teams);
  const perTeam = input.historyRows !== undefined ? Math.ceil(input.historyRows / Math.max(1, historyTeams)) : input.historyRowsPerTeam;
  let historyCount = 0;
  for (const team of teams.slice(0, historyTeams)) {
    const writers = team.agents.length ? team.agents : [team.manager];
    // each writer keeps a few regular brokers and lanes, as real agents do
    const regulars = new Map(writers.map((w) => [w.id, r.some(BROKERS, 8, 14)]));
    let rows: (typeof callHistory.$inferInsert)[] = [];
    for (let i = 0; i < perTeam; i++) {
      const user = team.agents.length && r.chance(0.92) ? r.pick(team.agents) : team.manager;
      const setting = r.pick(team.settingsOf.get(user.id)!);
      const broker = r.chance(0.8) && regulars.has(user.id) ? r.pick(regulars.get(user.id)!) : r.pick(BROKERS);
      const kind = r.chance(0.75) ? 'call' : 'email';
      const callDate = contactTime(r, now, input.historyDays);
      const origin = r.pick(CITIES);
      let dest = r.pick(CITIES);
      if (dest === origin) dest = CITIES[(CITIES.indexOf(origin) + 7) % CITIES.length]!;
      rows.push({
        id: randomId(),
        userId: user.id,
        teamId: team.manager.id,
        mcSettingId: setting.id,
        mcName: setting.name,
        kind,
        contact: kind === 'call' ? phone(r) : brokerEmail(r, broker),
        brokerName: broker,
        address: address(r),
        origin,
        dest,
        loadDate: isoDay(callDate + r.int(0, 3) * DAY),
        callDate: new Date(callDate),
        clientId: `seed-${randomId(12)}`,
      });
      // keep memory flat for 200,000-row teams
      if (rows.length >= 6000) {
        await insertAll(db, callHistory, rows);
        historyCount += rows.length;
        rows = [];
      }
    }
    await insertAll(db, callHistory, rows);
    historyCount += rows.length;
  }

  // ---- active loads ----
  const loadRows: (typeof activeLoads.$inferInsert)[] = [];
  for (const team of teams) {
    for (const user of [team.manager, ...team.agents]) {
      const n = user === team.manager ? Math.min(1, input.loadsPerAgent) : input.loadsPerAgent;
      for (let i = 0; i < n; i++) {
        const date = now - r.int(1, 5 * 24 * 60) * 60_000;
        const origin = r.pick(CITIES);
        let dest = r.pick(CITIES);
        if (dest === origin) dest = CITIES[(CITIES.indexOf(origin) + 5) % CITIES.length]!;
        loadRows.push({
          id: randomId(),
          userId: user.id,
          teamId: team.manager.id,
          mcSettingId: r.pick(team.settingsOf.get(user.id)!).id,
          brokerName: r.pick(BROKERS),
          origin,
          dest,
          loadDate: isoDay(date + r.int(0, 4) * DAY),
          date: new Date(date),
          clientId: `seed-${randomId(12)}`,
        });
      }
    }
  }
  await insertAll(db, activeLoads, loadRows);

  // ---- payments: a few confirmed Idram payments and two abandoned ones ----
  const price = Number.parseInt(env.MONTHLY_PRICE_AMD, 10) || 5000;
  const paymentStatements = [];
  for (let i = 0; i < input.payments + Math.min(2, input.payments); i++) {
    const team = teams[i % teams.length]!;
    const confirmed = i < input.payments;
    const forUser = i % 2 === 0 || !team.agents.length ? team.manager : r.pick(team.agents);
    const months = r.int(1, 3);
    const date = now - r.int(2, 80) * DAY - r.int(0, 86_000_000);
    paymentStatements.push(
      db.insert(payments).values({
        id: randomId(),
        globalIndex: sql`(select coalesce(max(${payments.globalIndex}), 0) + 1 from ${payments})`,
        type: 'idram',
        userId: forUser.id,
        payerUserId: team.manager.id,
        dateCreated: new Date(date),
        amount: months,
        monthlyPrice: price,
        priceTotal: months * price,
        promoUseId: null,
        status: confirmed ? 'confirmed' : 'link_generated',
        isLinkGenerationFailed: false,
        isOrderConfirmationReceived: confirmed,
        isPaymentConfirmed: confirmed,
        transId: confirmed ? String(r.int(10_000_000, 99_999_999)) + String(r.int(100_000, 999_999)) : null,
        payerAccount: confirmed ? String(r.int(100_000_000, 999_999_999)) : null,
        confirmedAt: confirmed ? new Date(date + 90_000) : null,
      }),
    );
  }
  if (paymentStatements.length) await db.batch(paymentStatements as [(typeof paymentStatements)[0], ...(typeof paymentStatements)[number][]]);

  // ---- short links: D1 rows, the KV entries the redirect reads, and some click history ----
  const linkRows: (typeof links.$inferInsert)[] = [];
  const statRows: (typeof linkClickStats.$inferInsert)[] = [];
  const targets = [
    'https://www.dat.com/load-boards',
    'https://truckstop.com/',
    'https://www.fmcsa.dot.gov/registration',
    'https://example.com/rate-confirmation/2026',
    'https://example.com/carrier-packet.pdf',
    'https://example.com/lanes/chicago-dallas',
  ];
  for (const team of teams) {
    for (let i = 0; i < input.linksPerManager; i++) {
      const id = randomId();
      let clicks = 0;
      for (let d = 0; d < 14; d++) {
        const day = isoDay(now - d * DAY);
        const people = r.int(0, 12);
        const bots = r.int(0, 2);
        clicks += people + bots;
        if (people) statRows.push({ linkId: id, day, dimension: 'kind', value: 'person', count: people });
        if (bots) statRows.push({ linkId: id, day, dimension: 'kind', value: 'bot', count: bots });
        if (people) {
          statRows.push({
            linkId: id,
            day,
            dimension: 'referrer',
            value: r.pick(['direct', 'mail.google.com', 'web.whatsapp.com', 'www.linkedin.com']),
            count: people,
          });
          statRows.push({ linkId: id, day, dimension: 'country', value: r.pick(['US', 'US', 'US', 'CA', 'AM']), count: people });
          statRows.push({ linkId: id, day, dimension: 'device', value: r.pick(['desktop', 'desktop', 'mobile']), count: people });
        }
      }
      linkRows.push({
        id,
        userId: team.manager.id,
        code: randomId(CODE_LENGTH),
        from: targets[(i + teams.indexOf(team)) % targets.length]!,
        clicks,
        isDisabled: false,
        date: new Date(now - r.int(15, 60) * DAY),
      });
    }
  }
  await insertAll(db, links, linkRows);
  await insertAll(db, linkClickStats, statRows);
  await Promise.all(linkRows.map((l) => env.LINKS_KV.put(kvKey(l.code), JSON.stringify({ id: l.id!, from: l.from, disabled: false } satisfies KvLink))));

  // ---- a week of logins, for the admin's Analytics ----
  const loginRows: (typeof loginEvents.$inferInsert)[] = [];
  for (const team of teams) {
    for (const user of [team.manager, ...team.agents]) {
      for (let d = 0; d < 7; d++) {
        if (r.chance(0.7))
          loginRows.push({ id: randomId(), userId: user.id, clientType: r.chance(0.5) ? 1 : 0, createdAt: new Date(now - d * DAY - r.int(0, 8 * 3600_000)) });
      }
    }
  }
  await insertAll(db, loginEvents, loginRows);

  const managers = teams.map((t) => ({ email: t.manager.email, name: t.manager.name, agents: t.agents.length }));
  return {
    message: 'Demo company created',
    password: input.password,
    director: { email: director.email, name: director.name },
    managers,
    agents: teams.flatMap((t) => t.agents.map((a) => ({ email: a.email, name: a.name, manager: t.manager.email }))),
    // the first team holds the most data: the benchmarks log in as its manager
    benchManager: teams[0]!.manager.email,
    counts: {
      users: userRows.length,
      mcSettings: mcRows.length,
      filters: filterCount,
      history: historyCount,
      activeLoads: loadRows.length,
      payments: paymentStatements.length,
      confirmedPayments: input.payments,
      links: linkRows.length,
      loginEvents: loginRows.length,
    },
    ms: Date.now() - started,
  };
}
