import type {
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
} from '../../db/schema';
import { normalizeBrokerName } from '../../filters/broker-name';
import { randomId } from '../../lib/ids';
import { CODE_LENGTH } from '../../links/links.service';
import { address, anyBroker, brokerEmail, contactTime, DAY, digitsOf, isoDay, lane, personName, phone, type Rand } from './random';
import { BROKERS, CARRIERS, CITIES, COMMENTS, CONTENT, DEVICES, LINK_TARGETS, NAME_A, NAME_B, NAME_C, REFERRERS, SUBJECT, VISITOR_COUNTRIES } from './words';

/** Plain functions from the generator to rows, no database: `seedDemo` inserts what they answer. */

type Row<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export interface SeedUser {
  id: string;
  email: string;
  name: string;
}
export interface SeedTeam {
  manager: SeedUser;
  agents: SeedUser[];
  mcs: { id: string; name: string }[];
  /** For each user, its settings: the manager's own MCs, an agent's settings pointing at them. */
  settingsOf: Map<string, { id: string; name: string }[]>;
}

/** The director, its managers and their agents, a marketing user (one password hash for all), and every user's MC settings. */
export function buildCompany(
  r: Rand,
  input: { teams: number; agentsPerTeam: number; mcsPerTeam: number; emailDomain: string },
  passwordHash: string,
  now: number,
) {
  const userRows: Row<typeof users>[] = [];
  const mcRows: Row<typeof mcSettings>[] = [];
  const lineRows: Row<typeof mcLines>[] = [];
  const addUser = (u: {
    email: string;
    name: string;
    userType: 'director' | 'manager' | 'agent' | 'marketing';
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
      phone: digitsOf(phone(r)),
      country: 'US',
      tokenVersion: 0,
      deletedAt: null,
    };
    userRows.push(row);
    return { id: row.id, email: row.email, name: row.name };
  };
  const setting = (userId: string, mc: { id: string; name: string }, parentMcId: string | null, line: number, isVisible: boolean, createdAt: Date) => {
    mcRows.push({ id: mc.id, userId, name: mc.name, parentMcId, emailSubject: SUBJECT, emailContent: CONTENT, isVisible, createdAt });
    lineRows.push({ userId, line, mcSettingId: mc.id });
  };

  const domain = input.emailDomain;
  const director = addUser({ email: `director@${domain}`, name: personName(r), userType: 'director', parentId: null, daysAgo: 400, subscriptionDays: 365 });
  // the promo codes' role: staff, outside the team tree
  const marketing = addUser({ email: `marketing@${domain}`, name: personName(r), userType: 'marketing', parentId: null, daysAgo: 380, subscriptionDays: 365 });
  const teams: SeedTeam[] = [];
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
    const created = (n: number) => new Date(now - (250 - n) * DAY);
    const settingsOf = new Map<string, { id: string; name: string }[]>([[manager.id, mcs]]);
    for (const [i, mc] of mcs.entries()) setting(manager.id, mc, null, i + 1, true, created(i));
    for (const agent of agents) {
      const own = mcs.map((mc, i) => {
        const mine = { id: randomId(), name: mc.name };
        setting(agent.id, mine, mc.id, i + 1, r.chance(0.9), created(10 + i));
        return mine;
      });
      settingsOf.set(agent.id, own);
    }
    teams.push({ manager, agents, mcs, settingsOf });
  }
  return { director, marketing, teams, users: userRows, mcSettings: mcRows, mcLines: lineRows };
}

/** A team's broker filters with their MC, user and contact rows; the first names are real brokers. */
export function buildFilters(r: Rand, team: SeedTeam, typeIds: readonly string[], count: number, now: number) {
  const filters: Row<typeof brokerFilters>[] = [];
  const mcs: Row<typeof brokerFilterMcs>[] = [];
  const members: Row<typeof brokerFilterUsers>[] = [];
  const contacts: Row<typeof brokerFilterContacts>[] = [];
  const people = [team.manager, ...team.agents];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    let name = i < BROKERS.length ? BROKERS[i]! : `${r.pick(NAME_A)} ${r.pick(NAME_B)} ${r.pick(NAME_C)}`.trim();
    // the duplicate rule compares normal names (worker/filters/broker-name.ts): so does the seeder
    if (names.has(normalizeBrokerName(name))) name = `${name} ${r.pick(CITIES).split(',')[0]}`;
    while (names.has(normalizeBrokerName(name))) name = `${name} ${r.int(2, 99)}`;
    const normalName = normalizeBrokerName(name);
    names.add(normalName);
    const byAgent = team.agents.length > 0 && r.chance(0.3);
    const creator = byAgent ? r.pick(team.agents) : team.manager;
    const onlyCreator = byAgent && r.chance(0.4);
    const allMc = r.chance(0.4);
    const id = randomId();
    const created = new Date(now - Math.round(((count - i) / count) * 180 * DAY));
    filters.push({
      id,
      teamId: team.manager.id,
      creatorId: creator.id,
      name,
      normalName,
      // about half carry an MC number, unique in the team (the index i makes it so)
      mcNumber: r.chance(0.5) ? String(100000 + i * 7) : null,
      typeId: r.chance(0.1) ? '-1' : r.pick(typeIds),
      comment: r.pick(COMMENTS),
      isVisible: r.chance(0.9),
      isVerified: !byAgent || r.chance(0.7),
      onlyCreator,
      allMc,
      onlyOnContacts: false,
      newUsers: !onlyCreator && r.chance(0.5),
      index: i + 1,
      createdAt: created,
      updatedAt: created,
    });
    if (!allMc) for (const mc of r.some(team.mcs, 1, 2)) mcs.push({ filterId: id, mcId: mc.id });
    if (!onlyCreator) for (const u of r.some(people, 2, 6)) members.push({ filterId: id, userId: u.id });
    const own = new Set<string>();
    for (let c = r.int(0, 2); c > 0; c--) own.add(own.size === 0 && r.chance(0.6) ? digitsOf(phone(r)) : brokerEmail(r, name));
    for (const [position, contact] of [...own].entries()) contacts.push({ filterId: id, contact, position });
  }
  return { filters, mcs, members, contacts };
}

/** A team's contact history, `count` rows over the last `days`, in slices of `slice` rows (memory stays flat for 200,000-row teams). */
export function* historySlices(r: Rand, team: SeedTeam, count: number, days: number, now: number, slice = 6000): Generator<Row<typeof callHistory>[]> {
  const writers = team.agents.length ? team.agents : [team.manager];
  // each writer keeps a few regular brokers and lanes, as real agents do
  const regulars = new Map(writers.map((w) => [w.id, r.some(BROKERS, 8, 14)]));
  let rows: Row<typeof callHistory>[] = [];
  for (let i = 0; i < count; i++) {
    const user = team.agents.length && r.chance(0.92) ? r.pick(team.agents) : team.manager;
    const setting = r.pick(team.settingsOf.get(user.id)!);
    const broker = r.chance(0.8) && regulars.has(user.id) ? r.pick(regulars.get(user.id)!) : anyBroker(r);
    const kind = r.chance(0.75) ? 'call' : 'email';
    const callDate = contactTime(r, now, days);
    const { origin, dest } = lane(r, 7);
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
    if (rows.length >= slice) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length) yield rows;
}

/** Active loads: `perAgent` for each agent, at most one for its manager. */
export function buildLoads(r: Rand, teams: readonly SeedTeam[], perAgent: number, now: number): Row<typeof activeLoads>[] {
  const rows: Row<typeof activeLoads>[] = [];
  for (const team of teams) {
    for (const user of [team.manager, ...team.agents]) {
      const n = user === team.manager ? Math.min(1, perAgent) : perAgent;
      for (let i = 0; i < n; i++) {
        const date = now - r.int(1, 5 * 24 * 60) * 60_000;
        const { origin, dest } = lane(r, 5);
        rows.push({
          id: randomId(),
          userId: user.id,
          teamId: team.manager.id,
          mcSettingId: r.pick(team.settingsOf.get(user.id)!).id,
          brokerName: anyBroker(r),
          origin,
          dest,
          loadDate: isoDay(date + r.int(0, 4) * DAY),
          date: new Date(date),
          clientId: `seed-${randomId(12)}`,
        });
      }
    }
  }
  return rows;
}

/** Unique in the database, so a second demo company seeds too; draws two numbers, keeping the rest of the demo the same. */
function transIdOf(r: Rand): string {
  r.int(10_000_000, 99_999_999);
  const head = 10_000_000 + (crypto.getRandomValues(new Uint32Array(1))[0]! % 90_000_000);
  return `${head}${r.int(100_000, 999_999)}`;
}

export function buildPayments(
  r: Rand,
  teams: readonly SeedTeam[],
  confirmed: number,
  monthlyPrice: number,
  now: number,
): Omit<Row<typeof payments>, 'globalIndex'>[] {
  const rows: Omit<Row<typeof payments>, 'globalIndex'>[] = [];
  for (let i = 0; i < confirmed + Math.min(2, confirmed); i++) {
    const team = teams[i % teams.length]!;
    const paid = i < confirmed;
    const forUser = i % 2 === 0 || !team.agents.length ? team.manager : r.pick(team.agents);
    const months = r.int(1, 3);
    const date = now - r.int(2, 80) * DAY - r.int(0, 86_000_000);
    rows.push({
      id: randomId(),
      type: 'idram',
      userId: forUser.id,
      payerUserId: team.manager.id,
      dateCreated: new Date(date),
      amount: months,
      monthlyPrice,
      priceTotal: months * monthlyPrice,
      promoUseId: null,
      status: paid ? 'confirmed' : 'link_generated',
      isLinkGenerationFailed: false,
      isOrderConfirmationReceived: paid,
      isPaymentConfirmed: paid,
      transId: paid ? transIdOf(r) : null,
      payerAccount: paid ? String(r.int(100_000_000, 999_999_999)) : null,
      confirmedAt: paid ? new Date(date + 90_000) : null,
    });
  }
  return rows;
}

/** Each manager's short links with two weeks of click statistics (people and bots, referrers, countries, devices). */
export function buildLinks(r: Rand, teams: readonly SeedTeam[], perManager: number, now: number) {
  const linkRows: Row<typeof links>[] = [];
  const stats: Row<typeof linkClickStats>[] = [];
  for (const [t, team] of teams.entries()) {
    for (let i = 0; i < perManager; i++) {
      const id = randomId();
      let clicks = 0;
      for (let d = 0; d < 14; d++) {
        const day = isoDay(now - d * DAY);
        const people = r.int(0, 12);
        const bots = r.int(0, 2);
        clicks += people + bots;
        if (people) stats.push({ linkId: id, day, dimension: 'kind', value: 'person', count: people });
        if (bots) stats.push({ linkId: id, day, dimension: 'kind', value: 'bot', count: bots });
        if (people) {
          stats.push({ linkId: id, day, dimension: 'referrer', value: r.pick(REFERRERS), count: people });
          stats.push({ linkId: id, day, dimension: 'country', value: r.pick(VISITOR_COUNTRIES), count: people });
          stats.push({ linkId: id, day, dimension: 'device', value: r.pick(DEVICES), count: people });
        }
      }
      linkRows.push({
        id,
        userId: team.manager.id,
        code: randomId(CODE_LENGTH),
        from: LINK_TARGETS[(i + t) % LINK_TARGETS.length]!,
        clicks,
        isDisabled: false,
        date: new Date(now - r.int(15, 60) * DAY),
      });
    }
  }
  return { links: linkRows, stats };
}

export function buildLogins(r: Rand, teams: readonly SeedTeam[], now: number): Row<typeof loginEvents>[] {
  const rows: Row<typeof loginEvents>[] = [];
  for (const team of teams) {
    for (const user of [team.manager, ...team.agents]) {
      for (let d = 0; d < 7; d++) {
        if (r.chance(0.7))
          rows.push({ id: randomId(), userId: user.id, clientType: r.chance(0.5) ? 1 : 0, createdAt: new Date(now - d * DAY - r.int(0, 8 * 3600_000)) });
      }
    }
  }
  return rows;
}
