import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { LANGUAGES } from '../../lib/languages';
import { USER_TYPES } from '../../users/users.schema';

export const users = sqliteTable(
  'users',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    userType: text({ enum: USER_TYPES }).notNull(),
    isEmailVerified: integer({ mode: 'boolean' }).notNull().default(false),
    isTrialPeriod: integer({ mode: 'boolean' }).notNull().default(false),
    subscriptionEndDate: integer({ mode: 'timestamp_ms' }),
    registrationDate: integer({ mode: 'timestamp_ms' }).notNull(),
    parentId: text(),
    phone: text().notNull().default(''),
    country: text().notNull().default(''),
    // Bumped by a password change, logout, demotion or deletion: older tokens stop working.
    tokenVersion: integer().notNull().default(0),
    // Soft delete: a deleted user's filters, history, links and payments stay attributed to it.
    deletedAt: integer({ mode: 'timestamp_ms' }),
    // e-mails before the subscription ends (Profile's toggle); on by default
    remindersEnabled: integer({ mode: 'boolean' }).notNull().default(true),
    // screens, mails and Idram's page in this language (docs/decisions/0023-languages.md)
    language: text({ enum: LANGUAGES }).notNull().default('en'),
    // the company (the top of the user's tree) whose shard holds the user: docs/decisions/0174
    companyId: text().notNull().default(''),
  },
  (t) => [
    // login and userByEmail; a deleted user's e-mail may be registered again
    uniqueIndex('users_email_live').on(t.email).where(sql`deleted_at is null`),
    // team lists: a manager's agents, a director's managers
    index('users_parent').on(t.parentId),
    // admin's Users List filtered by type
    index('users_type').on(t.userType),
    // the reminders job: subscriptions ending in the next days
    index('users_subscription_end').on(t.subscriptionEndDate),
    // a company's users (moves)
    index('users_company').on(t.companyId),
  ],
);

export const EMAIL_TOKEN_KINDS = ['verify', 'reset'] as const;

export const emailTokens = sqliteTable(
  'email_tokens',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    kind: text({ enum: EMAIL_TOKEN_KINDS }).notNull(),
    tokenHash: text().notNull(),
    // for verify tokens: the e-mail being verified (a changed e-mail is verified anew)
    email: text().notNull(),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    usedAt: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the link in the e-mail is looked up by its hash
    uniqueIndex('email_tokens_hash').on(t.tokenHash),
    index('email_tokens_user').on(t.userId, t.kind),
  ],
);

/** One row per successful login; the Analytics screen counts them. */
export const loginEvents = sqliteTable(
  'login_events',
  {
    id: text().primaryKey(),
    userId: text().notNull(),
    clientType: integer().notNull().default(0),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // Analytics: logins since a date, per user
    index('login_events_user_time').on(t.userId, t.createdAt),
    // Analytics: daily logins chart
    index('login_events_time').on(t.createdAt),
  ],
);

/** Development only: the dev outbox. */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text().primaryKey(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    date: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('mail_outbox_date').on(t.date)],
);
