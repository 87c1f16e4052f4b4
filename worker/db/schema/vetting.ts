import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { VETTING_STATES } from '../../vetting/vetting.states';

/**
 * One row per broker, shared by every team (FMCSA's data is public; docs/decisions/0021-broker-vetting.md).
 * Keyed by the first name a filter gave it; `broker_vetting_names` leads the other names to it.
 */
export const brokerVetting = sqliteTable(
  'broker_vetting',
  {
    key: text().primaryKey(),
    dotNumber: text(),
    mcNumber: text(),
    legalName: text(),
    /** null until the first answer; then active, inactive, no_bond or not_found. */
    state: text({ enum: VETTING_STATES }),
    brokerAuthority: text(),
    commonAuthority: text(),
    contractAuthority: text(),
    /** QCMobile's amounts on file, in thousands of dollars, as it sends them ("0", "75"). */
    bondOnFile: text(),
    bondRequired: text(),
    bipdOnFile: text(),
    bipdRequired: text(),
    allowedToOperate: text(),
    statusCode: text(),
    oosDate: text(),
    /** When FMCSA last answered (the date the screens show). */
    checkedAt: integer({ mode: 'timestamp_ms' }),
    /** When the product last asked, answered or not; the job asks the oldest first. */
    attemptedAt: integer({ mode: 'timestamp_ms' }),
    /** The last failed attempt's reason (timeout, 429, 503 …), cleared by an answer. */
    lastError: text(),
    /** Counts the state's changes; a change's mails are keyed on it (broker_vetting_changes). */
    changeSeq: integer().notNull().default(0),
    /** When the state last changed (also the first answer): the extension's list's ETag reads the newest. */
    stateChangedAt: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the job: never asked first, then the longest unasked
    index('broker_vetting_attempted').on(t.attemptedAt),
    // the extension list's ETag: the newest state change
    index('broker_vetting_state_changed').on(t.stateChangedAt),
    // an MC row resolved to a DOT: the DOT's row is the same broker
    index('broker_vetting_dot').on(t.dotNumber),
  ],
);

/**
 * The names a broker's record answers to, `dot:<USDOT>` and `mc:<docket>` (leading zeros dropped):
 * its own key, and the numbers FMCSA tied to it (an MC lookup answers the broker's USDOT number).
 * Teams that name one broker by MC and by DOT read, check and are mailed about one record.
 */
export const brokerVettingNames = sqliteTable(
  'broker_vetting_names',
  {
    name: text().primaryKey(),
    key: text().notNull(),
  },
  // a record's names: the watch list's filters, and moving them when two records turn out one broker
  (t) => [index('broker_vetting_names_key').on(t.key)],
);

/**
 * A broker's status changes. The primary key makes a change happen once: of two job runs that
 * both saw the old state, the second's batch (this row, the state update, the mails and the
 * filters' audit rows together) fails on it and sends nothing.
 */
export const brokerVettingChanges = sqliteTable(
  'broker_vetting_changes',
  {
    key: text().notNull(),
    seq: integer().notNull(),
    fromState: text({ enum: VETTING_STATES }).notNull(),
    toState: text({ enum: VETTING_STATES }).notNull(),
    at: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

export const brokerVettingNotices = sqliteTable(
  'broker_vetting_notices',
  {
    key: text().notNull(),
    seq: integer().notNull(),
    userId: text().notNull(),
    mailId: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.seq, t.userId] }),
    // moving a user's rows to another shard (worker/shards/tables.ts)
    index('broker_vetting_notices_user').on(t.userId),
  ],
);

/** FMCSA calls per UTC day, counted before each call: the daily budget (one atomic upsert). */
export const fmcsaCallDays = sqliteTable('fmcsa_call_days', {
  day: text().primaryKey(),
  calls: integer().notNull().default(0),
});
