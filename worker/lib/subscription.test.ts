import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db } from '../test/helpers';
import { extendByMonths, extendByMonthsSql } from './subscription';

const DAY = 86_400_000;

/** Runs the SQL form in D1, one query per case. */
async function inD1(cases: { end: number | null; months: number; now: number }[]): Promise<number[]> {
  const out: number[] = [];
  for (const c of cases) {
    const row = await db.get<{ v: number }>(sql`select ${extendByMonthsSql(sql`${c.end}`, c.months, new Date(c.now))} as v`);
    out.push(row.v);
  }
  return out;
}

const js = (c: { end: number | null; months: number; now: number }) =>
  extendByMonths(c.end === null ? null : new Date(c.end), c.months, new Date(c.now)).getTime();

describe('extendByMonthsSql', () => {
  it('matches extendByMonths on month ends, leap years, the past, the future and no end date', async () => {
    const now = Date.UTC(2026, 0, 31, 13, 45, 12, 345);
    const ends = [
      null,
      now - 40 * DAY,
      now + 1,
      Date.UTC(2026, 0, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 29, 8),
      Date.UTC(2028, 0, 31, 0, 0, 0, 1),
      Date.UTC(2028, 1, 29, 12),
      Date.UTC(2026, 11, 31, 6, 30),
      Date.UTC(2030, 4, 31),
      Date.UTC(2026, 2, 30, 22),
    ];
    const cases = ends.flatMap((end) => [0, 1, 2, 11, 12, 13, 36, 120].map((months) => ({ end, months, now })));
    expect(await inD1(cases)).toEqual(cases.map(js));
  });

  it('matches extendByMonths on 400 random dates (fast-check)', async () => {
    const from = Date.UTC(2020, 0, 1);
    const to = Date.UTC(2060, 0, 1);
    const cases = fc.sample(
      fc.record({
        end: fc.option(fc.integer({ min: from, max: to }), { nil: null }),
        months: fc.integer({ min: 0, max: 48 }),
        now: fc.integer({ min: from, max: to }),
      }),
      { numRuns: 400, seed: 14 },
    );
    expect(await inD1(cases)).toEqual(cases.map(js));
  });

  it('refuses a month count that is not a small whole number', () => {
    expect(() => extendByMonthsSql(sql`0`, 1.5)).toThrow(RangeError);
    expect(() => extendByMonthsSql(sql`0`, -1)).toThrow(RangeError);
  });
});
