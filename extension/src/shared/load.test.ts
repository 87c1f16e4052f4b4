import { describe, expect, it } from 'vitest';
import { type BoardLoad, contactClientId, fullDate, loadClientId, readableDate } from './load';

const on = (iso: string) => new Date(`${iso}T12:00:00`);

describe("DAT's short dates as full dates", () => {
  it.each([
    ['11/24', '2026-11-20', '2026-11-24'],
    ['11/24 - 11/26', '2026-11-20', '2026-11-24'],
    ['1/2', '2026-12-30', '2027-01-02'],
    ['12/30', '2027-01-02', '2026-12-30'],
    ['7/4', '2026-07-10', '2026-07-04'],
    ['11/24/27', '2026-11-20', '2027-11-24'],
    ['11/24/2025', '2026-11-20', '2025-11-24'],
    ['2/29', '2028-02-20', '2028-02-29'],
    // the load's details name the month
    ['Nov 27', '2026-11-20', '2026-11-27'],
    ['May 14', '2026-05-10', '2026-05-14'],
    ['Jan 2', '2026-12-30', '2027-01-02'],
    ['Sept 3, 2027', '2026-11-20', '2027-09-03'],
    ['Pick-up Dec 1 - Dec 3', '2026-11-20', '2026-12-01'],
  ])('%s seen on %s is %s', (text, today, full) => expect(fullDate(text, on(today))).toBe(full));

  it.each([['Today'], [''], ['13/40'], ['2/30'], ['–'], ['Feb 30'], ['Mayday 4']])('%s is no date', (text) =>
    expect(fullDate(text, on('2026-11-20'))).toBeNull(),
  );

  it('writes a full date for people', () => {
    expect(readableDate('2026-11-24')).toBe('Nov 24, 2026');
    expect(readableDate('soon')).toBe('soon');
  });
});

describe('client ids of actions', () => {
  const load: BoardLoad = {
    company: 'Total Quality Logistics',
    phone: '(312) 555-0142',
    email: 'dispatch@tql.example',
    origin: 'Chicago, IL',
    dest: 'Dallas, TX',
    pickup: '11/24',
    rate: '$2,350',
    reference: 'TQL-1',
    mcNumber: '766673',
  };
  const at = on('2026-11-20').getTime();

  it('the same click twice is the same id, a valid clientId for the ingestion calls', async () => {
    const a = await contactClientId(load, 'mc1', 'call', load.phone, at);
    expect(await contactClientId({ ...load, rate: '$2,500' }, 'mc1', 'call', load.phone, at + 3_600_000)).toBe(a);
    expect(a).toMatch(/^fd-call-[0-9a-f]{40}$/);
    expect(await loadClientId(load, 'mc1')).toMatch(/^fd-load-[0-9a-f]{40}$/);
  });

  it('another MC, kind, contact, load or day is another entry', async () => {
    const a = await contactClientId(load, 'mc1', 'call', load.phone, at);
    const others = await Promise.all([
      contactClientId(load, 'mc2', 'call', load.phone, at),
      contactClientId(load, 'mc1', 'email', load.phone, at),
      contactClientId(load, 'mc1', 'call', '(312) 555-0143', at),
      contactClientId({ ...load, dest: 'Houston, TX' }, 'mc1', 'call', load.phone, at),
      contactClientId(load, 'mc1', 'call', load.phone, at + 86_400_000),
    ]);
    expect(new Set([a, ...others]).size).toBe(6);
    expect(await loadClientId(load, 'mc1')).not.toBe(await loadClientId(load, 'mc2'));
    expect(await loadClientId(load, 'mc1')).toBe(await loadClientId({ ...load, rate: '$9' }, 'mc1'));
    // the details add the reference and the MC: still the same load
    expect(await contactClientId({ ...load, reference: '', mcNumber: '' }, 'mc1', 'call', load.phone, at)).toBe(a);
  });
});
