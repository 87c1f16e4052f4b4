import { DurableObject } from 'cloudflare:workers';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { companyHomes, linkClickFlushes, linkClickStats, links, users, writeFence } from '../db/schema';
import type { Bindings, Db } from '../env';
import { CONTROL, controlDb, isFenceRefusal, shardDb } from '../lib/d1';
import { isUniqueViolation, runBatch } from '../lib/db';
import { randomId } from '../lib/ids';
import { forgetCompany, shardOfCompany } from '../lib/shards';
import { placeOfLink } from './codes';

export interface ClickBatch {
  /** Random per batch, kept when the isolate sends it again, so the counter stores it once. */
  id: string;
  linkId: string;
  clicks: number;
  /** `${day}|${dimension}|${value}` -> count */
  stats: Record<string, number>;
  /** `${day}|${hash}` of each person in the batch (a salted daily hash of IP and user agent). */
  visitors?: string[];
  /** The company of the link's owner, from its KV entry: where its shard is found (absent before shards). */
  co?: string;
}

/** How long received clicks wait in the object's storage before they go to D1 together. */
export const D1_WRITE_DELAY_MS = 1000;
/** Batch ids are remembered this long after they reached D1, to ignore an isolate's late resend. */
const KEEP_BATCH_IDS_MS = 10 * 60_000;
/** Applied D1 flush ids are kept this long in D1; an alarm's retry comes within minutes. */
const KEEP_FLUSH_IDS_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** A flush the link's shard refuses (its company is moving) is tried again after 1, 2, 4 … s, at most this far apart. */
export const MOVING_RETRY_MAX_MS = 30_000;

type FlushOutcome = 'applied' | 'refused';

/**
 * Exact click counting, one object per link (docs/decisions/0045-exact-clicks.md). `add()` answers
 * only once the batch is durable (output gate), and a resent batch id counts once. The alarm seals the
 * waiting batches under one flush id before calling D1, and D1 refuses a flush id it has applied, so
 * an alarm that runs again (alarms run at least once) adds nothing.
 */
export class ClickCounter extends DurableObject<Bindings> {
  private lastPrune = 0;
  /** The link's total clicks, kept once a click limit asked for it (`meta.total`); null before. */
  private total: number | null = null;
  private initializing: Promise<void> | null = null;
  private addsDuringInit = 0;
  /** True once this object has seen its D1 alarm set; the alarm clears it when it runs. */
  private alarmArmed = false;
  /** The company of the link's owner as last heard (`home.co`); undefined before it is read. */
  private company: string | null | undefined;
  /** Alarm runs in a row whose flush the link's shard refused (a move of its company). */
  private refusals = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec(`
      create table if not exists click_batches (
        id text primary key,
        link_id text not null,
        received_at integer not null,
        clicks integer not null,
        stats text,
        flush_id text,
        applied integer not null default 0
      );
      create index if not exists click_batches_flush on click_batches (flush_id);
      create index if not exists click_batches_applied on click_batches (applied, received_at);
      create table if not exists visitors (day text not null, hash text not null, primary key (day, hash)) without rowid;
      create table if not exists meta (k text primary key, v integer not null);
      create table if not exists home (k text primary key, v text not null);
    `);
  }

  ping(): 'ok' {
    return 'ok';
  }

  /** Stores one batch durably; answers false when that batch had already been received. */
  async add(batch: ClickBatch): Promise<boolean> {
    const stored = this.store(batch);
    await this.armAlarm();
    return stored;
  }

  /** Remembers it armed the alarm: reading it on every send cost a storage call (docs/decisions/0046-paced-click-sends.md). */
  private async armAlarm(): Promise<void> {
    if (this.alarmArmed) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + D1_WRITE_DELAY_MS);
    this.alarmArmed = true;
  }

  /**
   * One click of a link with a click limit: stored (true) while the link's total is below
   * `maxClicks`, refused (false, nothing stored) from then on. The check and the store run with
   * no await between them, so simultaneous claims cannot pass the limit.
   */
  async claim(batch: ClickBatch, maxClicks: number): Promise<boolean> {
    await this.ensureTotal(batch.linkId);
    if ((this.total ?? 0) + batch.clicks > maxClicks) return false;
    this.store(batch);
    await this.armAlarm();
    return true;
  }

  /** Synchronous, so nothing interleaves. */
  private store(batch: ClickBatch): boolean {
    const storage = this.ctx.storage.sql;
    if (storage.exec('select 1 from click_batches where id = ?', batch.id).toArray().length) return false;
    if (batch.co && batch.co !== this.companyHint()) this.rememberCompany(batch.co);
    const stats = { ...batch.stats };
    for (const visitor of batch.visitors ?? []) {
      const bar = visitor.indexOf('|');
      const day = visitor.slice(0, bar);
      if (storage.exec('insert or ignore into visitors (day, hash) values (?, ?)', day, visitor.slice(bar + 1)).rowsWritten) {
        const key = `${day}|unique|people`;
        stats[key] = (stats[key] ?? 0) + 1;
      }
    }
    storage.exec(
      'insert into click_batches (id, link_id, received_at, clicks, stats) values (?, ?, ?, ?, ?)',
      batch.id,
      batch.linkId,
      Date.now(),
      batch.clicks,
      JSON.stringify(stats),
    );
    if (this.loadTotal() !== null) {
      this.total! += batch.clicks;
      storage.exec("update meta set v = v + ? where k = 'total'", batch.clicks);
    } else if (this.initializing) this.addsDuringInit += batch.clicks;
    return true;
  }

  private loadTotal(): number | null {
    if (this.total === null) {
      const row = this.ctx.storage.sql.exec<{ v: number }>("select v from meta where k = 'total'").toArray()[0];
      if (row) this.total = row.v;
    }
    return this.total;
  }

  /**
   * The first claim learns the link's total: the clicks stored here and not yet in D1, read first,
   * plus D1's count, plus whatever is stored while D1 answers. A flush that reaches D1 during that
   * read is counted twice, so the total can only start too high (the limit then closes a few
   * clicks early, once), never too low.
   */
  private async ensureTotal(linkId: string): Promise<void> {
    if (this.loadTotal() !== null) return;
    this.initializing ??= (async () => {
      this.addsDuringInit = 0;
      const pending =
        this.ctx.storage.sql.exec<{ n: number }>('select coalesce(sum(clicks), 0) as n from click_batches where applied = 0').toArray()[0]?.n ?? 0;
      const clicks = await this.clicksInD1(linkId);
      const total = pending + clicks + this.addsDuringInit;
      this.ctx.storage.sql.exec("insert or replace into meta (k, v) values ('total', ?)", total);
      this.total = total;
    })().finally(() => {
      this.initializing = null;
    });
    await this.initializing;
  }

  async alarm(): Promise<void> {
    // this run is the alarm: a batch stored from now on arms the next one (or the end of this run does)
    this.alarmArmed = false;
    const storage = this.ctx.storage.sql;
    // a flush sealed by an earlier run that did not finish goes again with the same id
    let flushId = storage
      .exec<{ flush_id: string }>('select flush_id from click_batches where flush_id is not null and applied = 0 limit 1')
      .toArray()[0]?.flush_id;
    if (!flushId) {
      flushId = randomId();
      if (!storage.exec('update click_batches set flush_id = ? where flush_id is null', flushId).rowsWritten) return;
    }
    const rows = storage
      .exec<{ link_id: string; clicks: number; stats: string | null }>('select link_id, clicks, stats from click_batches where flush_id = ?', flushId)
      .toArray();
    const perLink = new Map<string, { clicks: number; stats: Record<string, number> }>();
    for (const row of rows) {
      const sum = perLink.get(row.link_id) ?? { clicks: 0, stats: {} };
      sum.clicks += row.clicks;
      for (const [key, count] of Object.entries(JSON.parse(row.stats ?? '{}') as Record<string, number>)) sum.stats[key] = (sum.stats[key] ?? 0) + count;
      perLink.set(row.link_id, sum);
    }
    // the sealing above is committed before this call leaves the object (output gate)
    let waiting = false;
    for (const [linkId, sum] of perLink) {
      if (!(await this.flush(perLink.size === 1 ? flushId : `${flushId}:${linkId}`, linkId, sum.clicks, sum.stats))) waiting = true;
    }
    const now = Date.now();
    if (waiting) {
      // the link's company is moving: the flush stays sealed, with its id, and goes to wherever the
      // company is once the move is over (a flush that landed there before is refused by its id)
      this.refusals += 1;
      await this.ctx.storage.setAlarm(now + Math.min(MOVING_RETRY_MAX_MS, D1_WRITE_DELAY_MS * 2 ** (this.refusals - 1)));
      this.alarmArmed = true;
      return;
    }
    this.refusals = 0;
    storage.exec('update click_batches set applied = 1, stats = null where flush_id = ?', flushId);
    storage.exec('delete from click_batches where applied = 1 and received_at < ?', now - KEEP_BATCH_IDS_MS);
    // a visitor is unique per day; yesterday's are kept for batches that arrive after midnight
    storage.exec('delete from visitors where day < ?', new Date(now - 86_400_000).toISOString().slice(0, 10));
    if (storage.exec('select 1 from click_batches where flush_id is null limit 1').toArray().length) {
      await this.ctx.storage.setAlarm(now + D1_WRITE_DELAY_MS);
      this.alarmArmed = true;
    }
  }

  private companyHint(): string | null {
    if (this.company === undefined) {
      this.company = this.ctx.storage.sql.exec<{ v: string }>("select v from home where k = 'co'").toArray()[0]?.v ?? null;
    }
    return this.company;
  }

  private rememberCompany(companyId: string) {
    this.ctx.storage.sql.exec("insert or replace into home (k, v) values ('co', ?)", companyId);
    this.company = companyId;
  }

  /** The shard to try first: the hinted company's (kept a minute per isolate), else what the control plane says. */
  private async firstShard(linkId: string): Promise<string | null> {
    const hint = this.companyHint();
    const shard = hint ? await shardOfCompany(this.env, hint) : undefined;
    return shard ?? this.findLink(linkId);
  }

  /**
   * Where the link lives now, from the control plane: its code's owner -> company -> shard; `DB`
   * for a link from before the code directory; null when it is nowhere (deleted).
   */
  private async findLink(linkId: string): Promise<string | null> {
    const control = controlDb(this.env);
    const place = await placeOfLink(control, linkId);
    const hint = this.companyHint();
    // this isolate's company -> shard entry may be a minute old: the next look reads it again
    if (hint) forgetCompany(hint);
    if (place) {
      if (place.companyId && place.companyId !== hint) this.rememberCompany(place.companyId);
      return place.shard;
    }
    const [legacy] = await control.select({ id: links.id }).from(links).where(eq(links.id, linkId)).limit(1);
    return legacy ? CONTROL : null;
  }

  /** False while the link's company is moving; a refused flush asks the control plane where the link is now. */
  private async flush(flushId: string, linkId: string, clicks: number, stats: Record<string, number>): Promise<boolean> {
    const tried = new Set<string>();
    let shard = await this.firstShard(linkId);
    while (shard !== null && !tried.has(shard)) {
      tried.add(shard);
      if ((await this.writeD1(shardDb(this.env, shard), flushId, linkId, clicks, stats)) === 'applied') return true;
      shard = await this.findLink(linkId);
    }
    // nowhere: the link was deleted, and its late clicks add nothing (docs/rules/links.md#0051-link-delete)
    return shard === null;
  }

  /** The link's total in D1, from its shard (the company's while it moves; wherever it went after). */
  private async clicksInD1(linkId: string): Promise<number> {
    const read = async (shard: string) => {
      const [row] = await shardDb(this.env, shard)
        .select({ clicks: links.clicks, state: companyHomes.state })
        .from(links)
        .leftJoin(users, eq(users.id, links.userId))
        .leftJoin(companyHomes, eq(companyHomes.companyId, users.companyId))
        .where(eq(links.id, linkId))
        .limit(1);
      // a copy on its way in, or one left behind by a move, is not the link's count
      return row && row.state !== 'incoming' && row.state !== 'moved' ? row.clicks : undefined;
    };
    const first = await this.firstShard(linkId);
    let clicks = first === null ? undefined : await read(first);
    if (clicks === undefined) {
      const now = await this.findLink(linkId);
      if (now !== null && now !== first) clicks = await read(now);
    }
    return clicks ?? 0;
  }

  /**
   * The link's fence (lib/d1.ts `fencedD1`) fails unless its company is active on this shard, so a
   * flush never lands in a copy being left behind; a move carries the flush ids along.
   */
  private async writeD1(db: Db, flushId: string, linkId: string, clicks: number, stats: Record<string, number>): Promise<FlushOutcome> {
    const now = Date.now();
    const rows = JSON.stringify(
      Object.entries(stats).map(([key, count]) => {
        const [day, dimension, ...value] = key.split('|');
        return [day, dimension, value.join('|'), count];
      }),
    );
    const statements: BatchItem<'sqlite'>[] = [
      db
        .insert(writeFence)
        .values({
          id: 1,
          // an owner without a user row (data from before companies) belongs to no company that moves
          ok: sql`(select count(*) from ${links} left join ${users} on ${users.id} = ${links.userId} left join ${companyHomes} on ${companyHomes.companyId} = ${users.companyId}
            where ${links.id} = ${linkId} and (${users.id} is null or ${companyHomes.state} = 'active'))`,
        })
        .onConflictDoUpdate({ target: writeFence.id, set: { ok: sql`excluded.ok` } }),
      db.insert(linkClickFlushes).values({ id: flushId, at: new Date(now), linkId }),
      db
        .update(links)
        .set({ clicks: sql`${links.clicks} + ${clicks}` })
        .where(sql`${links.id} = ${linkId}`),
      // `where true`: SQLite needs it to read an upsert after insert … select
      db
        .insert(linkClickStats)
        .select(
          sql`select ${linkId}, r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3 from json_each(${rows}) r where exists (select 1 from ${links} where ${links.id} = ${linkId})`,
        )
        .onConflictDoUpdate({
          target: [linkClickStats.linkId, linkClickStats.day, linkClickStats.dimension, linkClickStats.value],
          set: { count: sql`${linkClickStats.count} + excluded.count` },
        }),
    ];
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      statements.push(
        db.delete(linkClickFlushes).where(
          and(
            lt(linkClickFlushes.at, new Date(now - KEEP_FLUSH_IDS_MS)),
            // a company being moved keeps its links' receipts on both shards: the move counts and carries them
            sql`not exists (select 1 from ${links} join ${users} on ${users.id} = ${links.userId} left join ${companyHomes} on ${companyHomes.companyId} = ${users.companyId}
              where ${links.id} = ${linkClickFlushes.linkId} and ${companyHomes.state} is not 'active')`,
          ),
        ),
      );
      this.lastPrune = now;
    }
    try {
      await runBatch(db, statements);
    } catch (err) {
      if (isFenceRefusal(err)) return 'refused';
      // D1 refused the batch on the flush id: this flush was already applied
      if (!isUniqueViolation(err, 'link_click_flushes.id')) throw err;
    }
    return 'applied';
  }
}
