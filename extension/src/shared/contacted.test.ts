import { describe, expect, it } from 'vitest';
import type { TeamContactDto } from '../../../worker/team/team.schema';
import { brokerKeys, contactedText, contactsForRow } from './contacted';

const NOW = new Date(2026, 10, 25, 15, 0).getTime();
const contact = (extra: Partial<TeamContactDto>): TeamContactDto => ({
  userId: 'ben',
  by: 'Ben Baker',
  kind: 'call',
  at: NOW - 60 * 60_000,
  line: 2,
  mcName: 'Swift Haul',
  board: 'dat',
  brokerName: 'Total Quality Logistics',
  contact: '+15135550142',
  origin: 'Chicago, IL',
  dest: 'Dallas, TX',
  loadDate: '2026-11-26',
  ...extra,
});
const answer = (contacts: TeamContactDto[], hours = 12) => ({ contactMarkers: true, contactWindowHours: hours, contacts });
const row = { company: 'TOTAL QUALITY LOGISTICS, LLC', phone: '', email: '', origin: 'Chicago, IL', dest: 'Dallas, TX', pickup: 'Nov 26' };

describe('contacted by the team: which contacts mark a row', () => {
  it('by the normal name, this load first, one per person and channel; "you" for the own', () => {
    const found = contactsForRow(
      answer([
        contact({ at: NOW - 10 * 60_000, origin: 'Denver, CO' }),
        contact({}),
        contact({ userId: 'me', by: 'Anna Agent', kind: 'email', contact: 'loads@tql.example', at: NOW - 5 * 60_000, dest: 'Austin, TX' }),
        contact({ brokerName: 'Coyote Logistics' }),
      ]),
      new Map(),
      row,
      'me',
      NOW,
    );
    expect(found.map((c) => [c.userId, c.kind, c.thisLoad])).toEqual([
      ['ben', 'call', true],
      ['me', 'email', false],
    ]);
    expect(contactedText(found[0]!)).toMatch(/^Called by Ben · \d\d:\d\d · L2 · this load$/);
    expect(contactedText(found[1]!)).toMatch(/^E-mailed by you · \d\d:\d\d · L2$/);
    expect(contactedText(found[0]!, true)).toMatch(/^Called by Ben Baker · \d\d:\d\d · L2 · Swift Haul · this load$/);
    // the hover names the board a contact was made on when it is not the one the row is on
    expect(contactedText(found[0]!, true, 'dat')).not.toContain('on DAT');
    expect(contactedText({ ...found[0]!, board: 'truckstop' }, true, 'dat')).toMatch(/ · this load · on Truckstop$/);
  });
  it("by a filter's alias, by the row's phone or e-mail; never outside the window or with markers off", () => {
    const keys = brokerKeys([{ name: 'Total Quality Logistics', aliases: ['TQL'] }]);
    expect(contactsForRow(answer([contact({ brokerName: 'TQL' })]), keys, row, null, NOW)).toHaveLength(1);
    expect(contactsForRow(answer([contact({ brokerName: 'TQL' })]), new Map(), row, null, NOW)).toHaveLength(0);
    const other = { ...row, company: 'Some Other Name', phone: '(513) 555-0142 x1' };
    expect(contactsForRow(answer([contact({})]), new Map(), other, null, NOW)).toHaveLength(1);
    const mail = { ...row, company: 'X', email: 'LOADS@tql.example' };
    expect(contactsForRow(answer([contact({ kind: 'email', contact: 'loads@tql.example' })]), new Map(), mail, null, NOW)).toHaveLength(1);
    expect(contactsForRow(answer([contact({ at: NOW - 13 * 3_600_000 })]), new Map(), row, null, NOW)).toHaveLength(0);
    expect(contactsForRow(answer([contact({ at: NOW - 13 * 3_600_000 })], 24), new Map(), row, null, NOW)).toHaveLength(1);
    expect(contactsForRow({ contactMarkers: false, contactWindowHours: 12, contacts: [contact({})] }, new Map(), row, null, NOW)).toHaveLength(0);
  });
});
