import { describe, expect, it } from 'vitest';
import { amd, contactText, makeFormat, phoneText, shortDate } from './format';
import { makeTyping, setFormatLocale } from './format-dates';

/** One date, time and phone format per locale, whatever screen writes it (docs/rules/screens.md#0158-one-format). */
describe('the one formatter (web/lib/format.ts)', () => {
  const moment = Date.UTC(2026, 10, 25, 19, 39, 50);

  it('writes a date, a date and time, a time, an axis day and a month in one form per locale', () => {
    const us = makeFormat('en-US', 'UTC');
    expect(us.date(moment)).toBe('Nov 25, 2026');
    expect(us.dateTime(new Date(moment).toISOString())).toBe('Nov 25, 2026, 7:39 PM');
    expect(us.time(moment)).toBe('7:39 PM');
    expect(us.day(moment)).toBe('Nov 25');
    expect(us.month('2026-11')).toBe('Nov 2026');
    // none of the five forms seen before: "07:48 PM", "11/25/2026, 7:47:50 PM", "10-28", seconds, a numeric date
    for (const text of [us.date(moment), us.dateTime(moment), us.time(moment), us.day(moment)]) {
      expect(text).not.toMatch(/^0\d:|\d{1,2}\/\d{1,2}\/\d{4}|:\d{2}:\d{2}|^\d{2}-\d{2}$/);
    }
    // another locale gets its own one form, on the same options
    const de = makeFormat('de-DE', 'UTC');
    expect(de.date(moment)).toBe('25.11.2026');
    expect(de.dateTime(moment)).toBe('25.11.2026, 19:39');
    expect(de.time(moment)).toBe('19:39');
  });

  it("a locale the browser has no data for (Chromium has no Armenian) writes numbers, never another language's month names", () => {
    expect(Intl.DateTimeFormat.supportedLocalesOf('zz-ZZ')).toEqual([]);
    const none = makeFormat('zz-ZZ', 'UTC');
    expect(none.date(moment)).toBe('25.11.2026');
    expect(none.dateTime(moment)).toBe('25.11.2026, 19:39');
    expect(none.day(moment)).toBe('25.11');
    expect(none.month('2026-11')).toBe('11.2026');
  });

  it('follows the time zone it is given', () => {
    expect(makeFormat('en-US', 'Asia/Yerevan').dateTime(moment)).toBe('Nov 25, 2026, 11:39 PM');
    expect(makeFormat('en-US', 'America/Chicago').time(moment)).toBe('1:39 PM');
  });

  it('writes every phone in the one international form, whatever form it was stored or typed in', () => {
    expect(phoneText('+13125550142')).toBe('+1 312 555 0142');
    expect(phoneText('+17735550177;ext=12')).toBe('+1 773 555 0177 ext. 12');
    expect(phoneText('+37491234567')).toBe('+374 91 234567');
    expect(phoneText('+1 (312) 555-0142')).toBe('+1 312 555 0142');
    // not a phone: as it came
    expect(phoneText('hello')).toBe('hello');
    expect(contactText('ops@swift.example')).toBe('ops@swift.example');
    expect(contactText('+15550100100')).toBe('+1 555 010 0100');
  });

  it("writes AMD and dates in the user's language (docs/decisions/0023-languages.md): the spec's English, Russian and Armenian", () => {
    const day = new Date(2026, 10, 25, 12);
    try {
      setFormatLocale('en-US');
      expect(amd(5000)).toBe('5,000 AMD');
      expect(shortDate(day)).toBe('Nov 25, 2026');
      setFormatLocale('ru-RU');
      expect(amd(5000)).toMatch(/^5\s000 драм$/u);
      expect(shortDate(day)).toBe('25 нояб. 2026 г.');
      setFormatLocale('hy-AM');
      expect(amd(125000)).toMatch(/^125\s000 դր\.$/u);
      expect(shortDate(day)).not.toMatch(/Nov/);
    } finally {
      setFormatLocale(undefined);
    }
  });

  it("types days and times as the user's language writes them, and reads them back (the date fields, docs/decisions/0178-no-english-left.md)", () => {
    const us = makeTyping('en-US');
    expect(us.order).toEqual(['month', 'day', 'year']);
    expect(us.day('2027-01-22')).toBe('01/22/2027');
    expect(us.parseDay('1/22/2027')).toBe('2027-01-22');
    expect(us.parseDay('01/22/27')).toBe('2027-01-22');
    expect(us.time('21:30')).toBe('9:30 PM');
    expect(us.time('00:05')).toBe('12:05 AM');
    expect(us.parseTime('9:30 pm')).toBe('21:30');
    expect(us.parseTime('12:05 AM')).toBe('00:05');
    expect(us.parseTime('21:30')).toBe('21:30');
    const ru = makeTyping('ru-RU');
    expect(ru.day('2027-01-22')).toBe('22.01.2027');
    expect(ru.parseDay('22.1.2027')).toBe('2027-01-22');
    expect(ru.time('09:30')).toBe('09:30');
    expect(ru.parseTime('9.30')).toBe('09:30');
    expect(ru.parseTime('9:30 PM')).toBeNull();
    // no data for the locale (Armenian in Chromium and here): the numeric forms Armenia writes by hand
    const none = makeTyping('zz-ZZ');
    expect(none.day('2027-01-22')).toBe('22.01.2027');
    expect(none.parseDay('22.01.2027')).toBe('2027-01-22');
    expect(none.hour12).toBe(false);
    for (const typing of [us, ru, none]) {
      // the ISO form is understood everywhere; nothing else that is not a day is
      expect(typing.parseDay('2027-01-22')).toBe('2027-01-22');
      expect(typing.parseDay('')).toBe('');
      expect(typing.parseDay('31.02.2027')).toBeNull();
      expect(typing.parseDay('02/31/2027')).toBeNull();
      expect(typing.parseDay('22.01')).toBeNull();
      expect(typing.parseTime('24:00')).toBeNull();
      expect(typing.day('')).toBe('');
    }
  });
});
