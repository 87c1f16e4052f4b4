import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as z from 'zod';
import { AUTH_MESSAGES, hasInvisibleChars, isEmail, normalizeEmail } from '../auth/auth.schema';
import { problem } from '../lib/messages';
import { mailOutbox, users } from '../db/schema';
import { USER_TYPES } from '../users/users.schema';
import type { AppEnv, Bindings, Db } from '../env';
import { allow } from '../lib/auth';
import { badRequest } from '../lib/errors';
import { randomId } from '../lib/ids';
import { hashPassword } from '../lib/passwords';
import { secrets } from '../lib/secrets';
import { validate } from '../lib/validate';
import { CRONS, isJobCron, runScheduled } from '../jobs';
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

/**
 * The start step of `npm start`, `npm run dev` and the test servers: creates the first admin from
 * ADMIN_EMAIL / ADMIN_PASSWORD when no live admin exists. A deployed product gets its first admin
 * from `npm run admin:create` (scripts/create-admin.ts) instead.
 */
async function ensureAdmin(env: Bindings, db: Db): Promise<{ created: boolean; email: string }> {
  const email = normalizeEmail(env.ADMIN_EMAIL ?? '');
  const password = env.ADMIN_PASSWORD ?? '';
  if (!email || password.length < 6) throw badRequest('Set ADMIN_EMAIL and ADMIN_PASSWORD (at least 6 characters)');
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.userType, 'admin'), isNull(users.deletedAt)))
    .limit(1);
  if (admin) return { created: false, email };
  const inserted = await db
    .insert(users)
    .values({
      id: randomId(),
      name: 'Admin',
      email,
      passwordHash: await hashPassword(password, secrets(env).pepper),
      userType: 'admin',
      isEmailVerified: true,
      registrationDate: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return { created: inserted.length > 0, email };
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

/** Development only (worker/dev/index.ts mounts them; the production Worker does not import this file). */
export const devRoutes = new Hono<AppEnv>()
  .post('/admin', allow('development'), async (c) => c.json(await ensureAdmin(c.env, c.var.db), 200))
  // Browser tests and the demo seeder create users of any role and subscription state here.
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
    await c.var.db.insert(users).values(user);
    return c.json({ _id: user.id, email: user.email }, 200);
  })
  // `npm run seed:demo` and the benchmarks: a whole demo company (worker/dev/seed.ts).
  .post('/seed', allow('development'), validate('json', seedSchema), async (c) => c.json(await seedDemo(c.env, c.var.db, c.req.valid('json')), 201))
  // The scheduled jobs as their Cron Triggers run them, on demand, at any `now` (README,
  // "Scheduled jobs locally"): the same `scheduled` handler the deployed Worker runs.
  .on(['GET', 'POST'], '/scheduled', allow('development'), validate('query', scheduledQuery), async (c) => {
    const { cron, now } = c.req.valid('query');
    const time = now ? new Date(/^\d+$/.test(now) ? Number(now) : now).getTime() : Date.now();
    const results = await runScheduled({ cron: cron ?? '', scheduledTime: time }, c.env);
    return c.json({ now: new Date(time).toISOString(), results }, 200);
  })
  // the mail outbox, newest first
  .get('/outbox', allow('development'), async (c) => {
    // newest first; mails of the same millisecond in the order they were kept (rowid)
    const rows = await c.var.db.select().from(mailOutbox).orderBy(desc(mailOutbox.date), desc(sql`rowid`)).limit(1000);
    return c.json(
      rows.map((m) => ({ to: m.to, subject: m.subject, text: m.text, html: m.html, date: m.date.toISOString() })),
      200,
    );
  });
