import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as z from 'zod';
import { AUTH_MESSAGES, hasInvisibleChars, isEmail, normalizeEmail } from '../auth/auth.schema';
import { mailOutbox, mcSettings, users } from '../db/schema';
import type { AppEnv, Bindings, Db } from '../env';
import { CONTACT_KINDS } from '../history/history.schema';
import { CRONS, isJobCron, runScheduled } from '../jobs';
import { allow } from '../lib/auth';
import { allShards, shardDb } from '../lib/d1';
import { placeUser, staffHome, userAnywhere, userHome } from '../lib/directory';
import { ApiError, badRequest } from '../lib/errors';
import { randomId } from '../lib/ids';
import { problem } from '../lib/messages';
import { hashPassword } from '../lib/passwords';
import { secrets } from '../lib/secrets';
import { teamIdOf } from '../lib/team';
import { validate } from '../lib/validate';
import { USER_TYPES } from '../users/users.schema';
import { seedDemo, seedSchema } from './seed';

const devUserSchema = z.object({
  userType: z.enum(USER_TYPES),
  email: z
    .string()
    .max(320)
    .refine(isEmail, { message: problem(AUTH_MESSAGES.emailInvalid) }),
  password: z.string().min(6).max(200),
  name: z
    .string()
    .min(1)
    .max(200)
    .refine((v) => !hasInvisibleChars(v), { message: problem(AUTH_MESSAGES.nameInvisible) }),
  parentId: z.string().max(64).nullable().optional(),
  subscriptionDays: z.number().min(-3650).max(3650).nullable().optional(),
  isEmailVerified: z.boolean().optional(),
});

/** A deployed product gets its first admin from `npm run admin:create` instead. */
async function ensureAdmin(env: Bindings, control: Db): Promise<{ created: boolean; email: string }> {
  const email = normalizeEmail(env.ADMIN_EMAIL ?? '');
  const password = env.ADMIN_PASSWORD ?? '';
  if (!email || password.length < 6) throw badRequest('Set ADMIN_EMAIL and ADMIN_PASSWORD (at least 6 characters)');
  const staff = await staffHome(env, control);
  const [admin] = await staff.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.userType, 'admin'), isNull(users.deletedAt)))
    .limit(1);
  if (admin) return { created: false, email };
  const user = {
    id: randomId(),
    name: 'Admin',
    email,
    passwordHash: await hashPassword(password, secrets(env).pepper),
    userType: 'admin' as const,
    isEmailVerified: true,
    registrationDate: new Date(),
  };
  try {
    await placeUser(env, control, user, null, (home, row) => home.db.insert(users).values(row));
  } catch (err) {
    // two start steps at once: the other one made it
    if (err instanceof ApiError && err.status === 409) return { created: false, email };
    throw err;
  }
  return { created: true, email };
}

/** `now` of the scheduled-jobs route: an ISO date or milliseconds since 1970 (default: now). */
const scheduledQuery = z.object({
  cron: z
    .string()
    .max(100)
    .refine(isJobCron, { message: `cron: one of ${Object.values(CRONS).join(', ')}` })
    .optional(),
  now: z
    .string()
    .max(40)
    .refine((v) => !Number.isNaN(new Date(/^\d+$/.test(v) ? Number(v) : v).getTime()), { message: 'now: an ISO date (2027-01-15T06:00:00Z) or milliseconds' })
    .optional(),
});

/** Contacts of a user at any date, past the logging call's year: old months for the archive's browser test and a demo. */
const devHistorySchema = z.object({
  userId: z.string().max(64),
  contacts: z
    .array(
      z.object({
        callDate: z.number().int(),
        brokerName: z.string().min(1).max(200),
        kind: z.enum(CONTACT_KINDS).optional().default('call'),
        contact: z.string().max(320).optional().default('+13125550142'),
      }),
    )
    .min(1)
    .max(2000),
});

async function addDevHistory(db: Db, input: z.output<typeof devHistorySchema>) {
  const [user] = await db.select().from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user) throw badRequest('No such user');
  const [mc] = await db.select({ id: mcSettings.id, name: mcSettings.name }).from(mcSettings).where(eq(mcSettings.userId, user.id)).limit(1);
  const rows = input.contacts.map((c) => ({
    id: randomId(),
    user_id: user.id,
    team_id: teamIdOf(user),
    mc_setting_id: mc?.id ?? 'dev',
    mc_name: mc?.name ?? 'Dev MC',
    kind: c.kind,
    contact: c.contact,
    broker_name: c.brokerName,
    call_date: c.callDate,
    client_id: randomId(),
  }));
  const columns = Object.keys(rows[0]!);
  for (let i = 0; i < rows.length; i += 500)
    await db.$client
      .prepare(`insert into call_history (${columns.join(', ')}) select ${columns.map((c) => `value ->> '$.${c}'`).join(', ')} from json_each(?1)`)
      .bind(JSON.stringify(rows.slice(i, i + 500)))
      .run();
  return { added: rows.length };
}

export const devRoutes = new Hono<AppEnv>()
  .post('/admin', allow('development'), async (c) => c.json(await ensureAdmin(c.env, c.var.control), 200))
  .post('/users', allow('development'), validate('json', devUserSchema), async (c) => {
    const input = c.req.valid('json');
    const days = input.subscriptionDays === undefined ? 30 : input.subscriptionDays;
    const user = {
      id: randomId(),
      name: input.name,
      email: normalizeEmail(input.email),
      passwordHash: await hashPassword(input.password, secrets(c.env).pepper),
      userType: input.userType,
      parentId: input.parentId ?? null,
      isEmailVerified: input.isEmailVerified ?? true,
      registrationDate: new Date(),
      subscriptionEndDate: days === null ? null : new Date(Date.now() + days * 86_400_000),
    };
    const parent = user.parentId ? ((await userAnywhere(c.env, c.var.control, user.parentId))?.row ?? null) : null;
    const home = await placeUser(c.env, c.var.control, user, parent, (h, row) => h.db.insert(users).values(row));
    return c.json({ _id: user.id, email: user.email, companyId: home.companyId, shard: home.shard }, 200);
  })
  // `npm run seed:demo` and the benchmarks: a whole demo company (worker/dev/seed.ts).
  .post('/seed', allow('development'), validate('json', seedSchema), async (c) => c.json(await seedDemo(c.env, c.var.control, c.req.valid('json')), 201))
  .post('/history', allow('development'), validate('json', devHistorySchema), async (c) => {
    const home = await userHome(c.env, c.var.control, c.req.valid('json').userId);
    if (!home) throw badRequest('No such user');
    return c.json(await addDevHistory(home.db, c.req.valid('json')), 201);
  })
  // The scheduled jobs as their Cron Triggers run them, on demand, at any `now` (docs/guides/operations.md,
  // "Scheduled jobs locally"): the same `scheduled` handler the deployed Worker runs.
  .on(['GET', 'POST'], '/scheduled', allow('development'), validate('query', scheduledQuery), async (c) => {
    const { cron, now } = c.req.valid('query');
    const time = now ? new Date(/^\d+$/.test(now) ? Number(now) : now).getTime() : Date.now();
    const results = await runScheduled({ cron: cron ?? '', scheduledTime: time }, c.env);
    return c.json({ now: new Date(time).toISOString(), results }, 200);
  })
  .get('/outbox', allow('development'), async (c) => {
    // every database's outbox (a mail is kept where the change that sends it is written), newest
    // first; mails of the same millisecond in the order they were kept (rowid)
    const lists = await Promise.all(
      allShards(c.env).map((shard) =>
        shardDb(c.env, shard)
          .select({ mail: mailOutbox, rowid: sql<number>`rowid` })
          .from(mailOutbox)
          .orderBy(desc(mailOutbox.date), desc(sql`rowid`))
          .limit(1000),
      ),
    );
    const rows = lists
      .flat()
      .sort((a, b) => b.mail.date.getTime() - a.mail.date.getTime() || b.rowid - a.rowid)
      .slice(0, 1000)
      .map(({ mail: m }) => ({ to: m.to, subject: m.subject, text: m.text, html: m.html, date: m.date.toISOString() }));
    return c.json(rows, 200);
  });
