import { describe, expect, it } from 'vitest';
import { composeUrl } from './compose';

describe('compose URLs: the address, subject and body in each mail client', () => {
  const subject = 'Load Chicago, IL → Dallas, TX on Nov 26, 2026';
  const body = 'Hello Total Quality Logistics,\nIs TQL-1 still available at $1,250 + fuel?\nAnna';
  const read = (url: string) => new URLSearchParams(url.split('?')[1]);
  it('mailto: with the subject and body (RFC 6068)', () => {
    const url = composeUrl('system', 'loads@tql.example', subject, body);
    expect(url.startsWith('mailto:loads@tql.example?subject=')).toBe(true);
    expect(read(url).get('subject')).toBe(subject);
    expect(read(url).get('body')).toBe(body);
  });
  it('Gmail: view=cm, to, su and body', () => {
    const url = composeUrl('gmail', 'loads@tql.example', subject, body);
    expect(url.startsWith('https://mail.google.com/mail/?view=cm&fs=1&to=loads%40tql.example&su=')).toBe(true);
    expect(Object.fromEntries(read(url))).toEqual({ view: 'cm', fs: '1', to: 'loads@tql.example', su: subject, body });
  });
  it('Outlook on the web: to, subject and body, spaces as %20 and a plus as %2B', () => {
    const url = composeUrl('outlook', 'loads@tql.example', subject, body);
    expect(url.startsWith('https://outlook.office.com/mail/deeplink/compose?to=loads%40tql.example&subject=Load%20Chicago')).toBe(true);
    expect(url).not.toMatch(/\+/);
    expect(Object.fromEntries(read(url))).toEqual({ to: 'loads@tql.example', subject, body });
  });
  it('an empty template leaves the fields out', () => {
    expect(composeUrl('system', 'a@b.example', '', '')).toBe('mailto:a@b.example');
    expect(composeUrl('outlook', 'a@b.example', '', '')).toBe('https://outlook.office.com/mail/deeplink/compose?to=a%40b.example');
  });
});
