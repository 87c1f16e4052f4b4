import { count, countDistinct, gte, max, sql, sum } from 'drizzle-orm';
import { extensionHealthReports } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { allShards, shardDb } from '../lib/d1';
import { randomId } from '../lib/ids';
import {
  BOARD_LAYOUTS,
  type BoardLayout,
  HEALTH_BOARDS,
  HEALTH_FIELDS,
  type HealthField,
  type HealthReportInput,
  type HealthSummaryDto,
  type HealthVersionDto,
} from './extension-health.schema';

const r = extensionHealthReports;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A unique index, so two reports racing in the same hour store one. */
export async function storeReport(db: Db, caller: Caller, input: HealthReportInput, now = Date.now()): Promise<{ stored: boolean }> {
  const fields: Record<string, { read: number; missed: number }> = {};
  for (const name of HEALTH_FIELDS) {
    const f = input.fields[name];
    if (f) fields[name] = { read: f.read, missed: f.missed };
  }
  const inserted = await db
    .insert(r)
    .values({
      id: randomId(),
      sessionId: caller.sessionId,
      userId: caller.id,
      hour: Math.floor(now / HOUR_MS),
      version: input.version,
      board: input.board,
      layout: input.layout,
      rowsSeen: input.rowsSeen,
      unreadable: input.unreadable,
      fields: JSON.stringify(fields),
      createdAt: new Date(now),
    })
    .onConflictDoNothing()
    .returning({ id: r.id });
  return { stored: inserted.length > 0 };
}

/** "1.10.0" after "1.9.2": versions compared number by number, newest first. */
const byVersionDesc = (a: string, b: string) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d) return d;
  }
  return 0;
};

type Aggregates = Awaited<ReturnType<typeof aggregatesIn>>;

/** One database's reports of the window, aggregated: SQLite sums the fields' JSON (json_each), so the Worker never holds the reports. */
async function aggregatesIn(db: Db, since: Date) {
  const inWindow = gte(r.createdAt, since);
  const [totals, layouts, fields] = await Promise.all([
    db
      .select({
        board: r.board,
        version: r.version,
        reports: count(),
        browsers: countDistinct(r.sessionId),
        unreadable: sum(sql<number>`${r.unreadable}`).mapWith(Number),
        rowsSeen: sum(r.rowsSeen).mapWith(Number),
        lastAt: max(r.createdAt),
      })
      .from(r)
      .where(inWindow)
      .groupBy(r.board, r.version),
    db.select({ board: r.board, version: r.version, layout: r.layout, reports: count() }).from(r).where(inWindow).groupBy(r.board, r.version, r.layout),
    db.all<{ board: string; version: string; field: string; read: number; missed: number }>(
      sql`select ${r.board} as board, ${r.version} as version, j.key as field, sum(json_extract(j.value, '$.read')) as read, sum(json_extract(j.value, '$.missed')) as missed
          from ${r}, json_each(${r.fields}) as j where ${r.createdAt} >= ${since.getTime()} group by ${r.board}, ${r.version}, j.key`,
    ),
  ]);
  return { totals, layouts, fields };
}

const epochOf = (at: unknown) => Number(at instanceof Date ? at.getTime() : at);

/** A session belongs to one user, so browsers add up across shards. */
function merge(parts: Aggregates[]): Aggregates {
  const totals = new Map<string, Aggregates['totals'][number]>();
  const layouts = new Map<string, Aggregates['layouts'][number]>();
  const fields = new Map<string, Aggregates['fields'][number]>();
  for (const part of parts) {
    for (const t of part.totals) {
      const key = `${t.board}\0${t.version}`;
      const had = totals.get(key);
      totals.set(
        key,
        had
          ? {
              ...had,
              reports: had.reports + t.reports,
              browsers: had.browsers + t.browsers,
              unreadable: (had.unreadable ?? 0) + (t.unreadable ?? 0),
              rowsSeen: (had.rowsSeen ?? 0) + (t.rowsSeen ?? 0),
              lastAt: epochOf(t.lastAt) > epochOf(had.lastAt) ? t.lastAt : had.lastAt,
            }
          : t,
      );
    }
    for (const l of part.layouts) {
      const key = `${l.board}\0${l.version}\0${l.layout}`;
      const had = layouts.get(key);
      layouts.set(key, had ? { ...had, reports: had.reports + l.reports } : l);
    }
    for (const f of part.fields) {
      const key = `${f.board}\0${f.version}\0${f.field}`;
      const had = fields.get(key);
      fields.set(key, had ? { ...had, read: Number(had.read) + Number(f.read), missed: Number(had.missed) + Number(f.missed) } : f);
    }
  }
  return { totals: [...totals.values()], layouts: [...layouts.values()], fields: [...fields.values()] };
}

/** Each board's fields apart, so a board that stops being read shows on its own. */
export async function summary(env: Bindings, days: number, now = Date.now()): Promise<HealthSummaryDto> {
  const since = new Date(now - days * DAY_MS);
  const { totals, layouts, fields } = merge(await Promise.all(allShards(env).map((shard) => aggregatesIn(shardDb(env, shard), since))));
  const versions = totals
    .filter((t) => (HEALTH_BOARDS as readonly string[]).includes(t.board))
    .map((t): HealthVersionDto => {
      const layoutCounts: Partial<Record<BoardLayout, number>> = {};
      for (const l of layouts)
        if (l.board === t.board && l.version === t.version && (BOARD_LAYOUTS as readonly string[]).includes(l.layout))
          layoutCounts[l.layout as BoardLayout] = l.reports;
      const own = new Map(
        fields.filter((f) => f.board === t.board && f.version === t.version).map((f) => [f.field, { read: Number(f.read), missed: Number(f.missed) }]),
      );
      return {
        board: t.board as HealthVersionDto['board'],
        version: t.version,
        reports: t.reports,
        browsers: t.browsers,
        unreadableReports: t.unreadable ?? 0,
        rowsSeen: t.rowsSeen ?? 0,
        lastAt: new Date(epochOf(t.lastAt)).toISOString(),
        layouts: layoutCounts,
        fields: HEALTH_FIELDS.filter((name) => own.has(name)).map((name: HealthField) => {
          const f = own.get(name)!;
          const all = f.read + f.missed;
          return { field: name, read: f.read, missed: f.missed, share: all ? f.read / all : null };
        }),
      };
    })
    .sort((a, b) => HEALTH_BOARDS.indexOf(a.board) - HEALTH_BOARDS.indexOf(b.board) || byVersionDesc(a.version, b.version));
  return { since: since.toISOString(), versions };
}
