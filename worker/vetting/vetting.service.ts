/** docs/decisions/0021-broker-vetting.md: a status change mails the watching managers once per change. */
import { and, asc, eq, getTableColumns, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import {
  brokerFilterEvents,
  brokerVettingChanges,
  brokerVettingNotices,
  brokerVetting as bv,
  callHistory,
  companyHomes,
  brokerFilters as f,
  fmcsaCallDays,
  brokerVettingNames as names,
  users,
} from '../db/schema';
import type { Bindings, Db } from '../env';
import { allShards, controlDb, shardDb } from '../lib/d1';
import { chunks, isUniqueViolation } from '../lib/db';
import { randomId } from '../lib/ids';
import type { Language } from '../lib/languages';
import { log } from '../lib/observe';
import { enqueueMails, escapeHtml, mailStatements } from '../mail/mailer';
import { mailDayIn, mailText } from '../mail/texts';
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

/** The name a filter gives its broker: by USDOT number where the filter has one, else by MC (docket) number. */
export function vettingName(dot: string | null | undefined, mc: string | null | undefined): string | null {
  const d = trimZeros(dot);
  if (d) return `dot:${d}`;
  const m = trimZeros(mc);
  return m ? `mc:${m}` : null;
}

/** The record a name leads to (a record made before names existed answers to its own key). */
const recordOfName = (name: string) =>
  sql`coalesce((select ${bv.key} from ${bv} join ${names} on ${names.key} = ${bv.key} where ${names.name} = ${name}), (select ${bv.key} from ${bv} where ${bv.key} = ${name}))`;

/** Never checked in the user's request: the 10-minute job asks FMCSA. For the save's own batch. */
export function seedStatements(db: Db, brokers: readonly { dot?: string | null; mc?: string | null }[], now = new Date()) {
  const rows = new Map<string, { dot: string | null; mc: string | null }>();
  for (const b of brokers) {
    const name = vettingName(b.dot, b.mc);
    if (name) rows.set(name, { dot: trimZeros(b.dot), mc: trimZeros(b.mc) });
  }
  return [...rows].flatMap(([name, b]) => [
    db
      .insert(bv)
      .select(sql`select ${newRecord({ key: name, dot: b.dot, mc: b.mc }, now)} where ${recordOfName(name)} is null`)
      .onConflictDoNothing(),
    nameItself(db.insert(names).values({ name, key: name })),
  ]);
}

/** A new record's columns in the table's order, for an INSERT … SELECT (drizzle names every column). */
function newRecord(v: { key: SQL | string; dot: SQL | string | null; mc: SQL | string | null }, now: Date) {
  const given: Record<string, unknown> = { key: v.key, dotNumber: v.dot, mcNumber: v.mc, changeSeq: 0, createdAt: now.getTime() };
  return sql.join(
    Object.keys(getTableColumns(bv)).map((column) => sql`${given[column] ?? null}`),
    sql`, `,
  );
}

/** A name leads to its own record; one whose record is gone (never, but by a fold, which moves the names) is its own again. */
const nameItself = <T extends { onConflictDoUpdate: (config: { target: typeof names.name; set: { key: SQL }; setWhere: SQL }) => unknown }>(insert: T) =>
  insert.onConflictDoUpdate({
    target: names.name,
    set: { key: sql`excluded.key` },
    setWhere: sql`not exists (select 1 from ${bv} where ${bv.key} = ${names.key})`,
  }) as ReturnType<T['onConflictDoUpdate']>;

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

/** One statement, so exact under simultaneous runs; counts nothing once the day's budget is spent. */
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

async function recordNamed(db: Db, name: string): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(bv)
    .where(sql`${bv.key} = ${recordOfName(name)}`)
    .limit(1);
  return row;
}

/** A failure keeps the last answer and its date, and notes the attempt so the 10-minute job retries after RETRY_MS. */
export async function checkBroker(env: Bindings, db: Db, name: string, now = new Date()): Promise<CheckOutcome> {
  if (!fmcsaConfigured(env)) return 'not_configured';
  const row = await recordNamed(db, name);
  if (!row) return 'failed';
  return (await checkRecord(env, db, row, now)).outcome;
}

async function checkRecord(env: Bindings, db: Db, row: Row, now: Date): Promise<{ outcome: CheckOutcome; key: string }> {
  const key = row.key;
  // the day's budget is the product's, whichever shard asks (docs/decisions/0176-one-vetting-record-per-broker.md)
  if (!(await takeBudget(env, controlDb(env), now))) return { outcome: 'budget', key };
  const dot = row.dotNumber ?? (key.startsWith('dot:') ? key.slice(4) : null);
  const answer: QcAnswer<QcCarrier> = dot ? await carrierByDot(env, dot) : await carrierByMc(env, row.mcNumber ?? key.slice(3));
  const at = new Date();
  if (answer.kind === 'failed') {
    await db.update(bv).set({ attemptedAt: now, lastError: answer.reason }).where(eq(bv.key, key));
    log('warn', { event: 'vetting.check_failed', key, reason: answer.reason });
    return { outcome: 'failed', key };
  }
  const c = answer.kind === 'found' ? answer.value : null;
  // the answer's USDOT number names this broker: another record under it is the same broker
  const record = c ? await linkDot(db, row, c.dotNumber, at) : row;
  return { outcome: await writeAnswer(env, db, record, c, now, at), key: record.key };
}

/**
 * When another record already answers to the DOT (one team named the broker by MC, another by DOT),
 * this one folds into it. Racing folds agree: each statement checks the survivor exists.
 */
async function linkDot(db: Db, row: Row, dotNumber: string, at: Date): Promise<Row> {
  const dot = trimZeros(dotNumber);
  if (!dot || row.key === `dot:${dot}`) return row;
  const name = `dot:${dot}`;
  await db.insert(names).values({ name, key: row.key }).onConflictDoNothing();
  const into = await recordNamed(db, name);
  if (!into || into.key === row.key) return row;
  const survives = sql`exists (select 1 from ${bv} where ${bv.key} = ${into.key})`;
  // the newer answer stays: the next change is told against the state the teams last saw
  const answered = row.checkedAt !== null && (into.checkedAt === null || row.checkedAt > into.checkedAt);
  await db.batch([
    db
      .update(bv)
      .set({
        ...(answered ? answerOf(row) : {}),
        mcNumber: sql`coalesce(${bv.mcNumber}, ${row.mcNumber})`,
        // the filters that named the folded record read this one now: the extension's list changes
        stateChangedAt: at,
      })
      .where(eq(bv.key, into.key)),
    db
      .update(names)
      .set({ key: into.key })
      .where(and(eq(names.key, row.key), survives)),
    db.delete(bv).where(and(eq(bv.key, row.key), survives)),
  ]);
  log('info', { event: 'vetting.folded', from: row.key, into: into.key });
  return (await recordNamed(db, name)) ?? into;
}

const answerOf = (r: Row) => ({
  state: r.state,
  legalName: r.legalName,
  brokerAuthority: r.brokerAuthority,
  commonAuthority: r.commonAuthority,
  contractAuthority: r.contractAuthority,
  bondOnFile: r.bondOnFile,
  bondRequired: r.bondRequired,
  bipdOnFile: r.bipdOnFile,
  bipdRequired: r.bipdRequired,
  allowedToOperate: r.allowedToOperate,
  statusCode: r.statusCode,
  oosDate: r.oosDate,
  checkedAt: r.checkedAt,
});

/** Writes FMCSA's answer (a carrier, or null: not found) on the record; a state change mails the watchers once. */
async function writeAnswer(env: Bindings, db: Db, row: Row, c: QcCarrier | null, now: Date, at: Date): Promise<CheckOutcome> {
  const key = row.key;
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
  // the filters whose name for a broker leads to this record: by a DOT number, or by an MC without one
  const named = new Set((await db.select({ name: names.name }).from(names).where(eq(names.key, row.key))).map((n) => n.name));
  named.add(row.key);
  const numbers = (prefix: string) => [...named].filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
  const dots = numbers('dot:');
  const mcs = numbers('mc:');
  const noDot = sql`ltrim(coalesce(${f.dotNumber}, ''), '0') = ''`;
  const byNumber = or(
    dots.length ? inArray(sql`ltrim(${f.dotNumber}, '0')`, dots) : undefined,
    mcs.length ? and(noDot, inArray(sql`ltrim(${f.mcNumber}, '0')`, mcs)) : undefined,
  );
  const filters = byNumber ? await db.select({ id: f.id, teamId: f.teamId, name: f.name }).from(f).where(byNumber) : [];
  const brokerNames = [...new Set([row.legalName, ...filters.map((x) => x.name)].filter((n): n is string => !!n))];
  const contacted = brokerNames.length
    ? await db
        .selectDistinct({ teamId: callHistory.teamId })
        .from(callHistory)
        .where(
          and(
            sql`${callHistory.brokerName} collate nocase in (${sql.join(
              brokerNames.map((n) => sql`${n}`),
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

/** An MC record not resolved to its DOT goes first: its answer may fold it into a record the run would ask again. */
async function dueKeys(db: Db, where: ReturnType<typeof or>, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: bv.key, dotNumber: bv.dotNumber })
    .from(bv)
    .where(where)
    .orderBy(sql`${bv.attemptedAt} is not null`, asc(bv.attemptedAt), asc(bv.createdAt))
    .limit(limit);
  const unresolved = (r: (typeof rows)[number]) => r.key.startsWith('mc:') && !r.dotNumber;
  return [...rows.filter(unresolved), ...rows.filter((r) => !unresolved(r))].map((r) => r.key);
}

/** One FMCSA call per broker per run: a record folded into another this run is not asked again. */
async function checkAll(env: Bindings, db: Db, keys: string[], now: Date) {
  const counts: Record<CheckOutcome | 'sameBroker', number> = { checked: 0, changed: 0, failed: 0, raced: 0, budget: 0, not_configured: 0, sameBroker: 0 };
  const asked = new Set<string>();
  for (const key of keys) {
    const row = await recordNamed(db, key);
    if (!row || asked.has(row.key)) {
      counts.sameBroker++;
      continue;
    }
    const { outcome, key: landed } = await checkRecord(env, db, row, now);
    asked.add(row.key).add(landed);
    counts[outcome]++;
    if (outcome === 'budget' || outcome === 'not_configured') break;
  }
  return counts;
}

/** Cron `0 5 * * *`, within FMCSA_DAILY_BUDGET. */
export async function runVettingDaily(env: Bindings, now = new Date()): Promise<Record<string, number>> {
  if (!fmcsaConfigured(env)) return { notConfigured: 1 };
  return everyShard(env, now, async (db) => {
    await seedMissing(db, now);
    const keys = await dueKeys(db, or(isNull(bv.attemptedAt), lt(bv.attemptedAt, new Date(now.getTime() - STALE_MS))), dailyBudget(env));
    return { due: keys.length, ...(await checkAll(env, db, keys, now)) };
  });
}

/**
 * The order turns daily so a spent budget does not leave the same shard last. A shard with a moving
 * company waits: the job writes rows of many companies at once, which must not change under the copy.
 */
async function everyShard(env: Bindings, now: Date, job: (db: Db) => Promise<Record<string, number>>): Promise<Record<string, number>> {
  const shards = allShards(env);
  const turn = Math.floor(now.getTime() / 86_400_000) % shards.length;
  const totals: Record<string, number> = {};
  for (const shard of [...shards.slice(turn), ...shards.slice(0, turn)]) {
    const db = shardDb(env, shard);
    const [moving] = await db
      .select({ id: companyHomes.companyId })
      .from(companyHomes)
      .where(inArray(companyHomes.state, ['moving', 'incoming']))
      .limit(1);
    if (moving) {
      totals.shardsWaiting = (totals.shardsWaiting ?? 0) + 1;
      continue;
    }
    const counts = await job(db);
    for (const [k, v] of Object.entries(counts)) totals[k] = (totals[k] ?? 0) + v;
    if (counts.budget || counts.not_configured) break;
  }
  return totals;
}

/** Filters saved before vetting existed, and imported ones (written in bulk). */
async function seedMissing(db: Db, now: Date) {
  const dot = sql`nullif(ltrim(coalesce(${f.dotNumber}, ''), '0'), '')`;
  const mc = sql`nullif(ltrim(coalesce(${f.mcNumber}, ''), '0'), '')`;
  const named = sql`(select distinct case when d is not null then 'dot:' || d else 'mc:' || m end as name, d, m
    from (select distinct ${dot} as d, ${mc} as m from ${f} where ${f.dotNumber} is not null or ${f.mcNumber} is not null)
    where d is not null or m is not null)`;
  // as seedStatements, for every name at once: a record for a name that leads to none, then its name
  await db.batch([
    db
      .insert(bv)
      .select(
        sql`select ${newRecord({ key: sql`w.name`, dot: sql`w.d`, mc: sql`w.m` }, now)} from ${named} as w
        where not exists (select 1 from ${names} join ${bv} on ${bv.key} = ${names.key} where ${names.name} = w.name)`,
      )
      .onConflictDoNothing(),
    nameItself(db.insert(names).select(sql`select ${bv.key}, ${bv.key} from ${bv} where true`)),
  ]);
}

/** At most FREQUENT_LIMIT a run, within the budget. */
export async function runVettingQueue(env: Bindings, now = new Date()): Promise<Record<string, number>> {
  if (!fmcsaConfigured(env)) return { notConfigured: 1 };
  return everyShard(env, now, async (db) => {
    const keys = await dueKeys(
      db,
      or(isNull(bv.attemptedAt), and(isNotNull(bv.lastError), lt(bv.attemptedAt, new Date(now.getTime() - RETRY_MS)))),
      FREQUENT_LIMIT,
    );
    return { due: keys.length, ...(await checkAll(env, db, keys, now)) };
  });
}

/** The records of brokers by any of their names (the filter list, the modal, the extension's list). */
export async function recordsByName(db: Db, brokerNames: readonly string[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (const part of chunks([...new Set(brokerNames)], 90)) {
    if (!part.length) continue;
    const linked = await db.select({ name: names.name, row: bv }).from(names).innerJoin(bv, eq(bv.key, names.key)).where(inArray(names.name, part));
    for (const r of linked) out.set(r.name, r.row);
    // records made before names existed answer to their own key
    const rest = part.filter((n) => !out.has(n));
    if (rest.length) for (const r of await db.select().from(bv).where(inArray(bv.key, rest))) out.set(r.key, r);
  }
  return out;
}
