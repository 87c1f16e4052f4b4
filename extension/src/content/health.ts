/**
 * Can the extension read this page? The board's alarm and the health report (docs/decisions/0145-board-alarm.md):
 * per field, how many of the loads seen on this page were read, and whether the page
 * looks like a results page the extension cannot read (most rows without a company name, or no
 * rows where the board's counter says there are results). Counts only: nothing of a row's content.
 * Each board reports on its own (the report names it), so a board whose rows stop being read
 * raises its own alarm.
 */
import type { BoardLayout, HealthField, HealthReportInput } from '../../../worker/extension/extension-health.schema';
import { HEALTH_FIELDS, SIGNAL_FIELDS } from '../../../worker/extension/extension-health.schema';
import { adapter } from './board-state';
import type { ReadRow, RowLayout } from './read';

/** Below this share of rows with a company name, the page counts as unreadable. */
const READABLE_SHARE = 0.5;
/** DAT draws its rows after the page loads: "no rows" counts only after this long. */
const SETTLE_MS = 2500;

export interface PageHealth {
  layout: RowLayout | null;
  unreadable: boolean;
  /** Why, for the bar: 'rows' (rows without a readable company) or 'noRows'. */
  reason: 'rows' | 'noRows' | null;
}

const startedAt = performance.now();

/** The loads seen on this page so far, by their row id (DAT's posting id) and what each had. */
const seen = new Map<string, ReadRow['found']>();
const layoutsSeen: Record<RowLayout, number> = { wide: 0, compact: 0 };

/** The loads whose open panel was seen (Truckstop's side panel): their panel's fields count, not as rows. */
const panelsSeen = new Map<string, ReadRow['found']>();

/** Counts a row as read (again: a row's details add fields once open). */
export function noteRow(row: Element, read: ReadRow) {
  const key = row.id || row.getAttribute('row-id') || `${read.load.company}|${read.load.origin}|${read.load.dest}|${read.load.pickup}`;
  note(seen, key, read, true);
}

/** Counts what an open panel showed, for the report's details fields. */
export function notePanel(read: ReadRow) {
  if (!read.load.company) return;
  note(panelsSeen, `${read.load.company}|${read.load.origin}|${read.load.dest}|${read.load.pickup}`, read, false);
}

function note(into: Map<string, ReadRow['found']>, key: string, read: ReadRow, withSignals: boolean) {
  const before = into.get(key);
  if (!before && read.layout && withSignals) layoutsSeen[read.layout]++;
  // a field read once for this load counts as read (the row is read again and again)
  const merged = { ...before };
  const signals = withSignals
    ? Object.fromEntries(Object.entries(read.signals).map(([name, shown]) => [SIGNAL_FIELDS[name as keyof typeof SIGNAL_FIELDS], shown]))
    : {};
  for (const [name, ok] of Object.entries({ ...read.found, ...signals })) merged[name] = !!(ok || before?.[name]);
  into.set(key, merged);
}

/** The page's layout: the one most rows are drawn in, never one row's guess; null when no row has either. */
export function pageLayout(reads: readonly ReadRow[]): RowLayout | null {
  let wide = 0;
  let compact = 0;
  for (const r of reads) {
    if (r.layout === 'wide') wide++;
    else if (r.layout === 'compact') compact++;
  }
  if (!wide && !compact) return null;
  return compact > wide ? 'compact' : 'wide';
}

/** Looks at the rows the page shows now. */
export function assess(): PageHealth {
  if (!adapter) return { layout: null, unreadable: false, reason: null };
  const rows = adapter.loadRows();
  const reads = rows.map(adapter.readRow);
  const layout = pageLayout(reads);
  const resultsPage = adapter.resultsPage();
  if (!rows.length) {
    const promised = adapter.resultsCount() ?? 0;
    const settled = performance.now() - startedAt > SETTLE_MS;
    const noRows = resultsPage && promised > 0 && settled;
    return { layout, unreadable: noRows, reason: noRows ? 'noRows' : null };
  }
  const readable = reads.filter((r) => r.load.company).length;
  const unreadable = (rows.length >= 3 || resultsPage) && readable / rows.length < READABLE_SHARE;
  return { layout, unreadable, reason: unreadable ? 'rows' : null };
}

/** The report for the server: counts per field over the loads seen, the layout, and the alarm. */
export function report(version: string, health: PageHealth): HealthReportInput {
  const fields: HealthReportInput['fields'] = {};
  for (const found of [...seen.values(), ...panelsSeen.values()]) {
    for (const [name, ok] of Object.entries(found)) {
      if (!(HEALTH_FIELDS as readonly string[]).includes(name)) continue;
      const f = fields[name as HealthField] ?? { read: 0, missed: 0 };
      if (ok) f.read++;
      else f.missed++;
      fields[name as HealthField] = f;
    }
  }
  const layout: BoardLayout =
    health.layout ?? (layoutsSeen.compact || layoutsSeen.wide ? (layoutsSeen.compact > layoutsSeen.wide ? 'compact' : 'wide') : 'unknown');
  return { version, board: adapter?.board ?? 'dat', layout, rowsSeen: Math.min(seen.size, 100_000), unreadable: health.unreadable, fields };
}

/** Whether anything was seen worth reporting: loads, or the alarm. */
export const worthReporting = (health: PageHealth) => seen.size > 0 || panelsSeen.size > 0 || health.unreadable;
