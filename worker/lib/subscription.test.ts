import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db } from '../test/helpers';
import { daysLeftText, subscriptionDaysLeft } from './days-left';
import { extendByMonths, extendByMonthsSql, removeMonths, removeMonthsSql, subscriptionOf } from './subscription';

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

describe('removeMonthsSql (refunds)', () => {
  it('matches removeMonths on month ends and leap years, keeps the time of day, and leaves no end date as none', async () => {
    const ends = [
      Date.UTC(2026, 2, 31, 13, 45, 12, 345),
      Date.UTC(2028, 2, 29, 8),
      Date.UTC(2028, 1, 29, 12),
      Date.UTC(2027, 0, 31, 23, 59, 59, 999),
      Date.UTC(2026, 11, 31, 6, 30),
      Date.UTC(2026, 6, 15),
    ];
    for (const end of ends)
      for (const months of [0, 1, 2, 12, 13, 36]) {
        const row = await db.get<{ v: number }>(sql`select ${removeMonthsSql(sql`${end}`, months)} as v`);
        expect(row.v, `${new Date(end).toISOString()} - ${months}`).toBe(removeMonths(new Date(end), months).getTime());
      }
    expect(removeMonths(new Date(Date.UTC(2026, 2, 31, 10)), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect((await db.get<{ v: number | null }>(sql`select ${removeMonthsSql(sql`${null}`, 2)} as v`)).v).toBeNull();
  });

  it('undoes extendByMonths from an end date in the future', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.integer({ min: 1, max: 36 }), async (end, months) => {
        const extended = extendByMonths(new Date(end), months, new Date(end - 1)).getTime();
        const back = await db.get<{ v: number }>(sql`select ${removeMonthsSql(sql`${extended}`, months)} as v`);
        // the day may have been clamped on the way out (Jan 31 + 1 month = Feb 28): never later than where it started
        expect(back.v).toBeLessThanOrEqual(end);
        expect(end - back.v).toBeLessThan(4 * DAY);
      }),
      { numRuns: 60 },
    );
  });
});

describe('subscriptionDaysLeft: whole calendar days to the end date (rule 0134)', () => {
  const at = (iso: string) => new Date(iso);
  it('counts the days to the end date shown, on the given calendar', () => {
    // seen on Nov 23 (Yerevan), ending Nov 26 (Yerevan): 3 days, whatever the hours
    expect(subscriptionDaysLeft(at('2026-11-26T06:00:00+04:00'), at('2026-11-23T23:30:00+04:00'))).toBe(3);
    expect(subscriptionDaysLeft(at('2026-11-26T23:00:00+04:00'), at('2026-11-23T00:10:00+04:00'))).toBe(3);
    // later today: 0, "Expires today"; the subscription is still active
    expect(subscriptionDaysLeft(at('2026-11-23T23:59:00+04:00'), at('2026-11-23T00:01:00+04:00'))).toBe(0);
    expect(
      subscriptionOf({ userType: 'manager', subscriptionEndDate: at('2026-11-23T23:59:00+04:00') }, at('2026-11-23T00:01:00+04:00').getTime()),
    ).toMatchObject({
      isSubscriptionActive: true,
      subscriptionDaysLeft: 0,
    });
    // tomorrow, even if less than 24 hours away
    expect(subscriptionDaysLeft(at('2026-11-24T01:00:00+04:00'), at('2026-11-23T23:00:00+04:00'))).toBe(1);
    // ended, or never: 0
    expect(subscriptionDaysLeft(at('2026-11-22T12:00:00+04:00'), at('2026-11-23T12:00:00+04:00'))).toBe(0);
    expect(subscriptionDaysLeft(null, at('2026-11-23T12:00:00+04:00'))).toBe(0);
    // the screen's calendar: the same moments on New York's calendar are Nov 22 and Nov 25
    expect(subscriptionDaysLeft(at('2026-11-26T06:00:00+04:00'), at('2026-11-23T05:00:00+04:00'), 'America/New_York')).toBe(3);
    expect(daysLeftText(0)).toBe('Expires today');
    expect(daysLeftText(1)).toBe('1 day left');
    expect(daysLeftText(3)).toBe('3 days left');
  });
});
