import { describe, expect, it } from 'vitest';
import type { MinifiedFilterDto } from '../../../worker/filters/filters.schema';
import { companyKey, filtersForRow, isBlockedLike, phoneKey } from './match';

const filter = (over: Partial<MinifiedFilterDto>): MinifiedFilterDto => ({
  _id: over.name ?? 'f',
  name: 'Total Quality Logistics',
  type: 't1',
  typeName: 'Blocked',
  color: '#d32f2f',
  comment: '',
  onlyOnContacts: false,
  contacts: [],
  allMC: false,
  mcList: ['mc-swift'],
  mcNumber: null,
  aliases: [],
  ...over,
});

describe('company names', () => {
  it.each([
    ['Total Quality Logistics, LLC', 'TOTAL QUALITY LOGISTICS'],
    ['Total Quality Logistics Inc.', 'total  quality   logistics'],
    ['Coyote Logistics Co.', 'Coyote Logistics'],
    ['C.H. Robinson', 'CH Robinson'],
    ['The Allen Lund Company', 'Allen Lund'],
    ['Echo Global Logistics, Inc', 'Echo Global Logistics Incorporated'],
    ['Werner & Sons LLC', 'Werner and Sons'],
    ['Échelon Freight Corp', 'Echelon Freight'],
    ['Acme Freight L.L.C.', 'Acme Freight'],
    ['XPO Logistics, LLC, Inc.', 'XPO Logistics'],
  ])('%s is the same company as %s', (a, b) => {
    expect(companyKey(a)).toBe(companyKey(b));
    expect(companyKey(a)).not.toBe('');
  });

  it.each([
    ['Total Quality Logistics', 'Total Quality Freight'],
    ['Coyote Logistics', 'Coyote'],
    ['Arrive Logistics', 'Arrive Logistic Co'],
  ])('%s is not %s', (a, b) => expect(companyKey(a)).not.toBe(companyKey(b)));

  it('keeps a name made of a suffix word alone, and drops nothing from a one-word name', () => {
    expect(companyKey('Company')).toBe('company');
    expect(companyKey('  ')).toBe('');
  });
});

describe('phones', () => {
  it.each([
    ['(312) 555-0142', '3125550142'],
    ['+1 (312) 555-0142', '3125550142'],
    ['312.555.0142 ext 12', '3125550142'],
    ['(312) 555-0142 x 7', '3125550142'],
    ['312-555-0142#3', '3125550142'],
    ['+13125550142;ext=12', '3125550142'],
    ['+44 20 7946 0958', '442079460958'],
    ['', ''],
  ])('%s compares as %s', (phone, key) => expect(phoneKey(phone)).toBe(key));
});

describe('which filters flag a row', () => {
  const swift = { teamMcId: 'mc-swift' };
  const blue = { teamMcId: 'mc-blue' };
  const row = { company: 'Total Quality Logistics, LLC', phone: '(312) 555-0142', email: 'Dispatch@TQL.example' };

  it('only the filters of the picked MC, or of all MCs', () => {
    const onSwift = filter({ _id: 'a' });
    const all = filter({ _id: 'b', allMC: true, mcList: [], typeName: 'Note' });
    expect(filtersForRow([onSwift, all], swift, row).map((f) => f._id)).toEqual(['a', 'b']);
    expect(filtersForRow([onSwift, all], blue, row).map((f) => f._id)).toEqual(['b']);
    expect(filtersForRow([onSwift, all], null, row)).toEqual([]);
  });

  it('a contacts-only filter needs the row phone (digits only) or e-mail among its contacts', () => {
    const byPhone = filter({ _id: 'p', onlyOnContacts: true, contacts: ['+1 312-555-0142'] });
    const byEmail = filter({ _id: 'e', onlyOnContacts: true, contacts: ['dispatch@tql.example'] });
    const other = filter({ _id: 'o', onlyOnContacts: true, contacts: ['(312) 555-9999', 'ops@tql.example'] });
    expect(filtersForRow([byPhone, byEmail, other], swift, row).map((f) => f._id)).toEqual(['p', 'e']);
    expect(filtersForRow([byPhone, byEmail], swift, { ...row, phone: '', email: '' })).toEqual([]);
  });

  it('a filter also flags the names its broker trades under (aliases), in the same normal form', () => {
    const tql = filter({ _id: 't', name: 'TQL Holdings', aliases: ['Total Quality Logistics'] });
    expect(filtersForRow([tql], swift, row).map((f) => f._id)).toEqual(['t']);
    expect(filtersForRow([tql], swift, { ...row, company: 'T.Q.L. Holdings, Inc.' }).map((f) => f._id)).toEqual(['t']);
    expect(filtersForRow([tql], swift, { ...row, company: 'Total Quality Freight' })).toEqual([]);
  });

  it('another company with the same contact is not flagged', () => {
    const byPhone = filter({ onlyOnContacts: true, contacts: ['(312) 555-0142'] });
    expect(filtersForRow([byPhone], swift, { ...row, company: 'Coyote Logistics' })).toEqual([]);
  });

  it('Blocked-like type names tint the row', () => {
    for (const name of ['Blocked', 'blocked broker', 'Do not use', 'DNU', 'Blacklist', 'Banned', 'Avoid']) expect(isBlockedLike(name), name).toBe(true);
    for (const name of ['Preferred', 'Slow pay', 'Check first', 'Note', 'Unblocker']) expect(isBlockedLike(name), name).toBe(false);
  });
});

describe("the broker's MC number from the load's details", () => {
  const swift = { teamMcId: 'mc-swift' };
  const row = { company: 'TQL Freight Services', phone: '', email: '' };

  it('flags a row whose MC number is the filter’s, exactly, under another trading name', () => {
    const byMc = filter({ name: 'Total Quality Logistics', mcNumber: '411443' });
    expect(filtersForRow([byMc], swift, { ...row, mcNumber: '411443' })).toEqual([byMc]);
    expect(filtersForRow([byMc], swift, { ...row, mcNumber: '0411443' })).toEqual([byMc]);
    // never a prefix or a part of it
    expect(filtersForRow([byMc], swift, { ...row, mcNumber: '41144' })).toEqual([]);
    expect(filtersForRow([byMc], swift, { ...row, mcNumber: '4114431' })).toEqual([]);
    // before the details are open there is no MC: the name alone decides
    expect(filtersForRow([byMc], swift, row)).toEqual([]);
  });

  it('a filter without an MC number never matches by MC; a contacts-only filter still needs the contact', () => {
    const noMc = filter({ name: 'Other Broker', mcNumber: null });
    expect(filtersForRow([noMc], swift, { ...row, mcNumber: '411443' })).toEqual([]);
    const contactsOnly = filter({ name: 'Total Quality Logistics', mcNumber: '411443', onlyOnContacts: true, contacts: ['ops@tql.example'] });
    expect(filtersForRow([contactsOnly], swift, { ...row, mcNumber: '411443' })).toEqual([]);
    expect(filtersForRow([contactsOnly], swift, { ...row, mcNumber: '411443', email: 'OPS@tql.example' })).toEqual([contactsOnly]);
  });

  it('an MC number matches only on the MCs the filter is in force for', () => {
    const byMc = filter({ name: 'Total Quality Logistics', mcNumber: '411443', mcList: ['mc-blue'] });
    expect(filtersForRow([byMc], swift, { ...row, mcNumber: '411443' })).toEqual([]);
    expect(filtersForRow([byMc], { teamMcId: 'mc-blue' }, { ...row, mcNumber: '411443' })).toEqual([byMc]);
  });
});
