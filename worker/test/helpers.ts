import { env } from 'cloudflare:workers';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { mailOutbox, users } from '../db/schema';
import type { Bindings, Db } from '../env';
import { newSession } from '../lib/auth';
import { allShards, createDb, d1Of, placementShards, shardDb } from '../lib/d1';
import { claimEmail, type Home, newCompanyOn, placeUser, userHome } from '../lib/directory';
import { randomId } from '../lib/ids';
import { fillText, type Message, type ParamsArgs } from '../lib/messages';
import { hashPassword } from '../lib/passwords';
import type { UserType } from '../users/users.schema';
import { fetchWorker } from './dispatch';

export const testEnv = env as unknown as Bindings;
/** The control plane (docs/decisions/0174-company-shards.md): directory, companies, money, API keys. */
export const control = createDb(testEnv.DB);
/** The control plane's database; a company's data is in its shard: `user.db`. */
export const db = control;
export const PASSWORD = 'secret-pass';
let passwordHash: Promise<string> | null = null;
const DAY = 86_400_000;

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

export async function call(method: string, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetchWorker(`http://localhost${path}`, { method, headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
  userType: UserType;
  token: string;
  /** The user's company and the shard that holds it, with a (fenced) handle there. */
  companyId: string;
  shard: string;
  db: Db;
}

/** Placed as the product places one: a new company on the emptiest shard, its parent's otherwise, staff for admin and marketing. */
export async function createUser(
  userType: UserType,
  opts: {
    parentId?: string | null;
    subscriptionDays?: number | null;
    isEmailVerified?: boolean;
    name?: string;
    email?: string;
    /** A new company on this shard rather than the emptiest (a director, or a manager or agent on its own). */
    shard?: string;
  } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD, testEnv.PASSWORD_PEPPER!);
  const id = randomId();
  const email = opts.email ?? `${userType}-${id.toLowerCase()}@test.example`;
  const name = opts.name ?? `${userType} ${id.slice(0, 5)}`;
  const days = opts.subscriptionDays === undefined ? 30 : opts.subscriptionDays;
  const row = {
    id,
    name,
    email,
    passwordHash: await passwordHash,
    userType,
    isEmailVerified: opts.isEmailVerified ?? true,
    registrationDate: new Date(),
    subscriptionEndDate: days === null ? null : new Date(Date.now() + days * DAY),
    parentId: opts.parentId ?? null,
  };
  const parent = opts.parentId ? await homeOfUser(opts.parentId) : null;
  const home =
    opts.shard && !parent
      ? await newCompanyOn(testEnv, control, opts.shard)
      : await placeUser(testEnv, control, row, parent, (h, placed) => h.db.insert(users).values(placed));
  if (opts.shard && !parent) {
    await claimEmail(testEnv, control, { userId: id, email, companyId: home.companyId });
    await home.db.insert(users).values({ ...row, companyId: home.companyId });
  }
  return { id, email, name, userType, token: await sessionToken(id), ...home };
}

export async function homeOfUser(userId: string): Promise<Home> {
  const home = await userHome(testEnv, control, userId);
  if (!home) throw new Error(`no user ${userId} in the directory`);
  return home;
}

/** A handle on every database, for reads that look everywhere (a user that may have moved). */
export const everyDb = () => allShards(testEnv).map((shard) => ({ shard, db: shardDb(testEnv, shard) }));

/** A company shard other than `shard` (for tests that put two companies apart). */
export const otherShard = (shard: string) => placementShards(testEnv).find((s) => s !== shard)!;

/** As a login would, without the password work. */
export async function sessionToken(userId: string, clientType = 0): Promise<string> {
  const { db } = await homeOfUser(userId);
  const [user] = await db.select({ id: users.id, tokenVersion: users.tokenVersion, companyId: users.companyId }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`no user ${userId}`);
  const session = await newSession(testEnv, db, user, clientType, 'test');
  await session.insert;
  return session.accessToken;
}

/** A director with one manager and two agents, all with active subscriptions; their company on `shard` when given. */
export async function createTeam(shard?: string) {
  const director = await createUser('director', { shard });
  const manager = await createUser('manager', { parentId: director.id });
  const agent1 = await createUser('agent', { parentId: manager.id });
  const agent2 = await createUser('agent', { parentId: manager.id });
  return { director, manager, agents: [agent1, agent2] as const };
}

export const getUser = async (id: string) => (await (await homeOfUser(id)).db.select().from(users).where(eq(users.id, id)))[0];

export async function loginToken(email: string, password = PASSWORD): Promise<string> {
  const res = await call('POST', '/api/auth/login', { body: { email, password, clientType: 0 } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body.accessToken;
}

export async function countRows(table: string): Promise<number> {
  const counts = await Promise.all(
    allShards(testEnv).map((shard) => d1Of(testEnv, shard).prepare(`select count(*) as n from ${table}`).first<{ n: number }>()),
  );
  return counts.reduce((sum, row) => sum + (row?.n ?? 0), 0);
}

export async function outbox(): Promise<{ to: string; subject: string; text: string }[]> {
  return (await call('GET', '/api/dev/outbox')).body;
}

/** The token from the newest mail's link to `path` (emailVerify or passwordRecovery) for `to`. */
export async function tokenFromMail(to: string, path: 'emailVerify' | 'passwordRecovery'): Promise<string> {
  const mail = (await outbox()).find((m) => m.to === to && m.text.includes(`/${path}/`));
  const match = mail && new RegExp(`/${path}/([0-9a-f]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} mail for ${to}`);
  return match[1]!;
}

/** An entry's refusal as the API answers it: its English with the values, its code, and the values (docs/decisions/0182-messages-keyed-by-code.md). */
export function errorBody<M extends Message>(
  entry: M,
  ...[params]: ParamsArgs<M>
): { message: string; code: string; params?: Record<string, string | number> } {
  const values = params as Record<string, string | number> | undefined;
  return { message: fillText(entry.text, values), code: entry.code, ...(values ? { params: values } : {}) };
}

export async function userRowByEmail(email: string) {
  for (const { db } of everyDb()) {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.email, email), isNull(users.deletedAt)));
    if (row) return row;
  }
  return undefined;
}

export async function outboxRowsTo(to: string) {
  const lists = await Promise.all(
    everyDb().map(({ db }) => db.select({ mail: mailOutbox, rowid: sql<number>`rowid` }).from(mailOutbox).where(eq(mailOutbox.to, to))),
  );
  return lists
    .flat()
    .sort((a, b) => a.mail.date.getTime() - b.mail.date.getTime() || a.rowid - b.rowid)
    .map((r) => r.mail);
}
