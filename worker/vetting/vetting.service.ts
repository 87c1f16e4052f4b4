/**
 * Broker vetting (docs/decisions/0021-broker-vetting.md): one FMCSA record per broker, shared by
 * every team, refreshed by the jobs and by a manager's Check now; a status change mails the
 * managers of the teams watching the broker, once per change, and enters each of their filters'
 * audit trail.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import {
  brokerFilterEvents,
  brokerFilters as f,
  brokerVetting as bv,
  brokerVettingChanges,
  brokerVettingNotices,
  callHistory,
  fmcsaCallDays,
  users,
} from '../db/schema';
import type { Bindings, Db } from '../env';
import { chunks, createDb, isUniqueViolation } from '../lib/db';
import { randomId } from '../lib/ids';
import type { Language } from '../lib/languages';
import { enqueueMails, escapeHtml, mailStatements } from '../lib/mailer';
import { mailDayIn, mailText } from '../lib/mail-texts';
import { log } from '../lib/observe';
import { carrierByDot, carrierByMc, dailyBudget, fmcsaConfigured, type QcAnswer, type QcCarrier } from './fmcsa';
import { VETTING_LABELS, type VettingDto, type VettingState } from './vetting.schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The daily job asks again about brokers last asked this long ago or more. */
const STALE_MS = 20 * HOUR;
/** A failed check is tried again by the 10-minute job after this long. */
const RETRY_MS = HOUR;
/** Checks per run of the 10-minute job (new brokers and retries); the daily budget still applies. */
const FREQUENT_LIMIT = 30;
/** "Contacted in the last 30 days" for the watch list. */
const CONTACT_WINDOW_MS = 30 * DAY;
/** The actor of the audit rows a status change writes (no user did it). */
export const FMCSA_ACTOR = 'fmcsa';

const trimZeros = (n: string | null | undefined) => {
  const d = (n ?? '').replace(/\D/g, '').replace(/^0+/, '');
  return d || null;
};

/** A broker's key: by USDOT number where the filter has one, else by MC (docket) number. */
export function vettingKey(dot: string | null | undefined, mc: string | null | undefined): string | null {
  const d = trimZeros(dot);
  if (d) return `dot:${d}`;
  const m = trimZeros(mc);
  return m ? `mc:${m}` : null;
}

/**
 * The statement that makes sure a record exists for each broker a filter save names (never
 * checked yet: the 10-minute job asks FMCSA, never the user's request). For the save's own batch.
 */
export function seedStatement(db: Db, brokers: readonly { dot?: string | null; mc?: string | null }[], now = new Date()) {
  const rows = new Map<string, { key: string; dotNumber: string | null; mcNumber: string | null; createdAt: Date }>();
  for (const b of brokers) {
    const key = vettingKey(b.dot, b.mc);
    if (key) rows.set(key, { key, dotNumber: trimZeros(b.dot), mcNumber: trimZeros(b.mc), createdAt: now });
  }
  if (!rows.size) return null;
  return db
    .insert(bv)
    .values([...rows.values()])
    .onConflictDoNothing();
}

/** The state a carrier record means for a broker: authority first, then the bond. */
export function stateOf(c: QcCarrier): VettingState {
  if (c.brokerAuthorityStatus !== 'A') return 'inactive';
  // amounts in thousands of dollars as strings: "0" is none on file
  const bond = Number(c.bondInsuranceOnFile ?? '0');
  if (!Number.isFinite(bond) || bond <= 0) return 'no_bond';
  return 'active';
}

type Row = typeof bv.$inferSelect;

export function toDto(row: Row | null | undefined): VettingDto | null {
  if (!row) return null;
  return {
    state: row.state,
    label: VETTING_LABELS[row.state ?? 'unchecked'],
    legalName: row.legalName,
    dotNumber: row.dotNumber,
    mcNumber: row.mcNumber,
    brokerAuthority: row.brokerAuthority,
    commonAuthority: row.commonAuthority,
    contractAuthority: row.contractAuthority,
    bondOnFile: row.bondOnFile,
    bondRequired: row.bondRequired,
    bipdOnFile: row.bipdOnFile,
    bipdRequired: row.bipdRequired,
    allowedToOperate: row.allowedToOperate,
    outOfService: !!row.oosDate,
    oosDate: row.oosDate,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}

/**
 * Counts one call against today's budget (UTC day) in one statement: answers false, and counts
 * nothing, once the day's budget is spent. Exact under simultaneous runs.
 */
export async function takeBudget(env: Bindings, db: Db, now: Date): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const budget = dailyBudget(env);
  const rows = await db
    .insert(fmcsaCallDays)
    .values({ day, calls: 1 })
    .onConflictDoUpdate({ target: fmcsaCallDays.day, set: { calls: sql`${fmcsaCallDays.calls} + 1` }, setWhere: sql`${fmcsaCallDays.calls} < ${budget}` })
    .returning({ calls: fmcsaCallDays.calls });
  return rows.length > 0 && budget > 0;
}

export type CheckOutcome = 'checked' | 'changed' | 'failed' | 'raced' | 'budget' | 'not_configured';

/**
 * Asks FMCSA about one broker and writes the answer. An MC record resolved to its DOT is asked
 * by DOT from then on. A failure (timeout, 429, 5xx, a refused webKey) keeps the last answer and
 * its date, and notes the attempt so the 10-minute job tries again after RETRY_MS.
 */
export async function checkBroker(env: Bindings, db: Db, key: string, now = new Date()): Promise<CheckOutcome> {
  if (!fmcsaConfigured(env)) return 'not_configured';
  const [row] = await db.select().from(bv).where(eq(bv.key, key)).limit(1);
  if (!row) return 'failed';
  if (!(await takeBudget(env, db, now))) return 'budget';
  const dot = row.dotNumber ?? (key.startsWith('dot:') ? key.slice(4) : null);
  const answer: QcAnswer<QcCarrier> = dot ? await carrierByDot(env, dot) : await carrierByMc(env, row.mcNumber ?? key.slice(3));
  const at = new Date();
  if (answer.kind === 'failed') {
    await db.update(bv).set({ attemptedAt: now, lastError: answer.reason }).where(eq(bv.key, key));
    log('warn', { event: 'vetting.check_failed', key, reason: answer.reason });
    return 'failed';
  }
  const c = answer.kind === 'found' ? answer.value : null;
  const state: VettingState = c ? stateOf(c) : 'not_found';
  const fields = {
    state,
    ...(c
      ? {
          legalName: c.legalName,
          dotNumber: c.dotNumber,
          brokerAuthority: c.brokerAuthorityStatus,
          commonAuthority: c.commonAuthorityStatus,
          contractAuthority: c.contractAuthorityStatus,
          bondOnFile: c.bondInsuranceOnFile,
          bondRequired: c.bondInsuranceRequired,
          bipdOnFile: c.bipdInsuranceOnFile,
          bipdRequired: c.bipdInsuranceRequired,
          allowedToOperate: c.allowedToOperate,
          statusCode: c.statusCode,
          oosDate: c.oosDate,
        }
      : {}),
    checkedAt: at,
    attemptedAt: now,
    lastError: null,
  };
  // the row as this run read it: a run that lost a race writes nothing over the winner's answer
  const same = and(eq(bv.key, key), eq(bv.changeSeq, row.changeSeq));
  if (row.state === null || row.state === state) {
    await db
      .update(bv)
      .set({ ...fields, ...(row.state === null ? { stateChangedAt: at } : {}) })
      .where(same);
    return 'checked';
  }
  // a change: the change row (its key makes the change happen once), the record, the mails and the
  // audit rows in one batch; a run that raced another one fails on the change row and sends nothing
  const seq = row.changeSeq + 1;
  const next = { ...row, ...fields };
  const watch = await watchers(db, next, at);
  const drafts = watch.managers.map((m) => ({
    kind: 'vetting' as const,
    ...changeMail(env, m, next, row.state!, state, at),
  }));
  const mails = mailStatements(env, db, drafts, undefined, at);
  const statements: BatchItem<'sqlite'>[] = [
    db.insert(brokerVettingChanges).values({ key, seq, fromState: row.state, toState: state, at }),
    db
      .update(bv)
      .set({ ...fields, changeSeq: seq, stateChangedAt: at })
      .where(same),
    ...mails.statements,
    ...chunks(
      watch.managers.map((m, i) => ({ key, seq, userId: m.id, mailId: mails.ids[i]! })),
      20,
    ).map((part) => db.insert(brokerVettingNotices).values(part)),
    ...chunks(watch.filters, 20).map((part) =>
      db.insert(brokerFilterEvents).values(
        part.map((fl) => ({
          id: randomId(),
          filterId: fl.id,
          teamId: fl.teamId,
          actorId: FMCSA_ACTOR,
          kind: 'vetting' as const,
          changes: JSON.stringify({ status: [VETTING_LABELS[row.state!], VETTING_LABELS[state]] }),
          at,
        })),
      ),
    ),
  ];
  try {
    await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (err) {
    if (isUniqueViolation(err, 'broker_vetting_changes.seq')) return 'raced';
    throw err;
  }
  log('info', { event: 'vetting.changed', key, from: row.state, to: state, mails: drafts.length, filters: watch.filters.length });
  await enqueueMails(env, mails.ids);
  return 'changed';
}

interface Manager {
  id: string;
  name: string;
  email: string;
  language: Language;
}

/**
 * Who watches a broker: the teams with a filter naming its DOT or MC number, and the teams that
 * contacted it (a call or e-mail logged under its legal name or a filter's name for it) in the
 * last 30 days. Answers the filters (for their audit trails) and the teams' managers.
 */
async function watchers(db: Db, row: Row, now: Date): Promise<{ filters: { id: string; teamId: string }[]; managers: Manager[] }> {
  const dot = trimZeros(row.dotNumber);
  const mc = trimZeros(row.mcNumber);
  const byNumber = or(dot ? sql`ltrim(${f.dotNumber}, '0') = ${dot}` : undefined, mc ? sql`ltrim(${f.mcNumber}, '0') = ${mc}` : undefined);
  const filters = byNumber ? await db.select({ id: f.id, teamId: f.teamId, name: f.name }).from(f).where(byNumber) : [];
  const names = [...new Set([row.legalName, ...filters.map((x) => x.name)].filter((n): n is string => !!n))];
  const contacted = names.length
    ? await db
        .selectDistinct({ teamId: callHistory.teamId })
        .from(callHistory)
        .where(
          and(
            sql`${callHistory.brokerName} collate nocase in (${sql.join(
              names.map((n) => sql`${n}`),
              sql`, `,
            )})`,
            sql`${callHistory.callDate} > ${now.getTime() - CONTACT_WINDOW_MS}`,
          ),
        )
    : [];
  const teams = [...new Set([...filters.map((x) => x.teamId), ...contacted.map((x) => x.teamId)])];
  const managers = teams.length
    ? await db
        .select({ id: users.id, name: users.name, email: users.email, language: users.language })
        .from(users)
        .where(and(inArray(users.id, teams), eq(users.userType, 'manager'), isNull(users.deletedAt)))
    : [];
  return { filters: filters.map(({ id, teamId }) => ({ id, teamId })), managers };
}

/** The mail to a watching manager, in the manager's language. */
function changeMail(env: Bindings, to: Manager, row: Row, from: VettingState, state: VettingState, at: Date) {
  const texts = mailText(to.language);
  const v = texts.vetting;
  const who = [row.legalName ?? v.aBroker, row.dotNumber ? `USDOT ${row.dotNumber}` : null, row.mcNumber ? `MC ${row.mcNumber}` : null]
    .filter(Boolean)
    .join(', ');
  const subject = v.subject(row.legalName ?? who, v.labels[state]);
  const url = `${env.PUBLIC_URL.replace(/\/$/, '')}/filters/`;
  const lines = [texts.hello(to.name), v.changed(who, v.labels[from], v.labels[state], mailDayIn(to.language, at)), v.why, v.filters(url)];
  return {
    to: to.email,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join(''),
  };
}

/** The records due for a check, oldest first: never asked, then the longest unasked before `before`. */
async function dueKeys(db: Db, where: ReturnType<typeof or>, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: bv.key })
    .from(bv)
    .where(where)
    .orderBy(sql`${bv.attemptedAt} is not null`, asc(bv.attemptedAt), asc(bv.createdAt))
    .limit(limit);
  return rows.map((r) => r.key);
}

async function checkAll(env: Bindings, db: Db, keys: string[], now: Date) {
  const counts: Record<CheckOutcome, number> = { checked: 0, changed: 0, failed: 0, raced: 0, budget: 0, not_configured: 0 };
  for (const key of keys) {
    const outcome = await checkBroker(env, db, key, now);
    counts[outcome]++;
    if (outcome === 'budget' || outcome === 'not_configured') break;
  }
  return counts;
}

/**
 * The daily job (Cron Trigger `0 5 * * *`): every broker not asked for STALE_MS, the oldest
 * first, within the day's budget (FMCSA_DAILY_BUDGET), each call spaced at the product-wide gate.
 */
export async function runVettingDaily(env: Bindings, now = new Date()): Promise<Record<string, number>> {
  if (!fmcsaConfigured(env)) return { notConfigured: 1 };
  const db = createDb(env.DB);
  await seedMissing(db, now);
  const keys = await dueKeys(db, or(isNull(bv.attemptedAt), lt(bv.attemptedAt, new Date(now.getTime() - STALE_MS))), dailyBudget(env));
  const counts = await checkAll(env, db, keys, now);
  return { due: keys.length, ...counts };
}

/**
 * Records for the filters' brokers that have none: filters saved before vetting existed, and
 * imported ones (the import writes its rows in bulk). Once a day, one INSERT…SELECT over the
 * filters with a number; an existing record is left as it is.
 */
async function seedMissing(db: Db, now: Date) {
  const dot = sql`nullif(ltrim(coalesce(${f.dotNumber}, ''), '0'), '')`;
  const mc = sql`nullif(ltrim(coalesce(${f.mcNumber}, ''), '0'), '')`;
  await db.run(sql`insert into ${bv} (key, dot_number, mc_number, created_at)
    select case when d is not null then 'dot:' || d else 'mc:' || m end, d, m, ${now.getTime()}
    from (select distinct ${dot} as d, ${mc} as m from ${f} where ${f.dotNumber} is not null or ${f.mcNumber} is not null)
    where d is not null or m is not null
    on conflict do nothing`);
}

/**
 * The 10-minute job (`*`/10 cron): the first check of brokers just saved in a filter, and a retry
 * of checks that failed more than RETRY_MS ago; at most FREQUENT_LIMIT a run, within the budget.
 */
export async function runVettingQueue(env: Bindings, now = new Date()): Promise<Record<string, number>> {
  if (!fmcsaConfigured(env)) return { notConfigured: 1 };
  const db = createDb(env.DB);
  const keys = await dueKeys(
    db,
    or(isNull(bv.attemptedAt), and(isNotNull(bv.lastError), lt(bv.attemptedAt, new Date(now.getTime() - RETRY_MS)))),
    FREQUENT_LIMIT,
  );
  const counts = await checkAll(env, db, keys, now);
  return { due: keys.length, ...counts };
}

/** The records of brokers by key (the filter list, the modal, the extension's list). */
export async function recordsByKey(db: Db, keys: readonly string[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const part of chunks([...new Set(keys)], 90)) {
    if (!part.length) continue;
    for (const r of await db.select().from(bv).where(inArray(bv.key, part))) out.set(r.key, r);
  }
  return out;
}
