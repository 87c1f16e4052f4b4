import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { randomId } from '../lib/ids';
import { hashPassword } from '../lib/passwords';
import { call, countRows, createUser, db, getUser, PASSWORD, type TestUser, testEnv } from '../test/helpers';

/**
 * Look-alike accounts: an address or a name with a character nobody sees. Every path that takes
 * an e-mail or a name refuses each of these, and stores nothing.
 */
const INVISIBLE: [string, string][] = [
  ['U+200B zero width space', '\u200B'],
  ['U+2060 word joiner', '\u2060'],
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+180E Mongolian vowel separator', '\u180E'],
  ['U+FEFF zero width no-break space', '\uFEFF'],
  ['U+200D zero width joiner', '\u200D'],
  ['U+202E right-to-left override', '\u202E'],
  ['U+2028 line separator', '\u2028'],
  ['U+0007 bell (control)', '\u0007'],
  ['U+3164 Hangul filler', '\u3164'],
];

/** `ann@broker.example` with `ch` after the first letter and inside the domain. */
const inLocal = (email: string, ch: string) => `${email.slice(0, 1)}${ch}${email.slice(1)}`;
const inDomain = (email: string, ch: string) => email.replace('@', `@${ch}`);
const register = (body: object) =>
  call('POST', '/api/auth/register', {
    body: { name: 'Ann Broker', password: 'secret1', repeatPassword: 'secret1', country: 'AM', phone: '+37491234567', ...body },
  });
const answer = (res: { status: number; body: any }) => [res.status, res.body?.message];
const EMAIL_INVALID = [400, 'Email is not valid'];
const NAME_INVISIBLE = [400, 'Name contains invisible characters'];

/** A row written before the check existed: a look-alike of another user's address. */
async function oldLookAlike(of: TestUser, ch: string) {
  const id = randomId();
  const email = inLocal(of.email, ch);
  await db.insert(users).values({
    id,
    name: 'Look-alike',
    email,
    passwordHash: await hashPassword(PASSWORD, testEnv.PASSWORD_PEPPER!),
    userType: 'manager',
    isEmailVerified: true,
    registrationDate: new Date(),
  });
  return { id, email };
}

beforeAll(async () => {
  // the first API call of an isolate creates the first admin: not a row these tests count
  await call('GET', '/api/health');
});

describe.each(INVISIBLE)('%s', (_label, ch) => {
  it('registration refuses it in the e-mail and the name', async () => {
    const existing = await createUser('manager');
    const before = await countRows('users');
    for (const email of [inLocal(existing.email, ch), inDomain(existing.email, ch), `${existing.email}${ch}`]) {
      expect(answer(await register({ email })), JSON.stringify(email)).toEqual(EMAIL_INVALID);
    }
    expect(answer(await register({ name: `Ann${ch}Broker`, email: `fresh-${randomId(8).toLowerCase()}@broker.example` }))).toEqual(NAME_INVISIBLE);
    expect(await countRows('users')).toBe(before);
  });

  it('creating a user (admin and manager) refuses it in the e-mail and the name', async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const existing = await createUser('agent', { parentId: manager.id });
    const before = await countRows('users');
    for (const who of [admin, manager]) {
      const create = (body: object) =>
        call('POST', '/api/user/register', {
          token: who.token,
          body: { email: `new-${randomId(8).toLowerCase()}@t.example`, password: 'secret1', name: 'New Agent', newUserType: 'manager', ...body },
        });
      expect(answer(await create({ email: inLocal(existing.email, ch) }))).toEqual(EMAIL_INVALID);
      expect(answer(await create({ email: inDomain(existing.email, ch) }))).toEqual(EMAIL_INVALID);
      expect(answer(await create({ name: `New${ch}Agent` }))).toEqual(NAME_INVISIBLE);
    }
    expect(await countRows('users')).toBe(before);
  });

  it('name and e-mail updates refuse it and change nothing', async () => {
    const admin = await createUser('admin');
    const me = await createUser('manager');
    const other = await createUser('agent');
    expect(answer(await call('PUT', `/api/user/update/name/${me.id}`, { token: me.token, body: { newName: `Me${ch}` } }))).toEqual(NAME_INVISIBLE);
    expect(answer(await call('PUT', `/api/user/update/name/${other.id}`, { token: admin.token, body: { newName: `${ch}Other` } }))).toEqual(NAME_INVISIBLE);
    const own = await call('PUT', `/api/user/update/email/${me.id}`, {
      token: me.token,
      body: { newEmail: inLocal(other.email, ch), currentPassword: PASSWORD },
    });
    expect(answer(own)).toEqual(EMAIL_INVALID);
    const byAdmin = await call('PUT', `/api/user/update/email/${other.id}`, { token: admin.token, body: { newEmail: inDomain(me.email, ch) } });
    expect(answer(byAdmin)).toEqual(EMAIL_INVALID);
    expect(await getUser(me.id)).toMatchObject({ name: me.name, email: me.email, tokenVersion: 0 });
    expect(await getUser(other.id)).toMatchObject({ name: other.name, email: other.email, tokenVersion: 0 });
  });

  it('a login with it fails, even for a look-alike row stored before the check', async () => {
    const victim = await createUser('manager');
    const lookAlike = await oldLookAlike(victim, ch);
    for (const email of [lookAlike.email, inDomain(victim.email, ch)]) {
      expect(answer(await call('POST', '/api/auth/login', { body: { email, password: PASSWORD } }))).toEqual([400, 'Wrong email or password']);
    }
    expect((await call('POST', '/api/auth/login', { body: { email: victim.email, password: PASSWORD } })).status).toBe(200);
  });

  it('userByEmail and assigning a promo code by e-mail refuse it and never answer a look-alike', async () => {
    const admin = await createUser('admin');
    const marketing = await createUser('marketing');
    const victim = await createUser('manager');
    const lookAlike = await oldLookAlike(victim, ch);
    for (const who of [admin, marketing]) {
      const found = await call('POST', '/api/user/userByEmail', { token: who.token, body: { email: lookAlike.email } });
      expect(answer(found)).toEqual(EMAIL_INVALID);
    }
    const res = await call('POST', '/api/promocode/createRandomPublic', {
      token: marketing.token,
      body: { effectType: 'freeMonths', effectValue: 1, generateAmount: 1 },
    });
    const code = res.body.codes[0];
    const assigned = await call('POST', '/api/promocode/assignUser', { token: marketing.token, body: { id: code._id, email: lookAlike.email } });
    expect(answer(assigned)).toEqual(EMAIL_INVALID);
    const list = (await call('GET', '/api/promocode/freeAndPublic', { token: marketing.token })).body as { _id: string; assignedUser: unknown }[];
    expect(list.find((p) => p._id === code._id)).toMatchObject({ assignedUser: null });
  });
});

describe('look-alike spellings meet the same account (NFKC)', () => {
  it('full-width letters and a decomposed accent register as the existing address, and log in to it', async () => {
    const stamp = randomId(6).toLowerCase();
    const plain = `ann-${stamp}@broker.example`;
    expect((await register({ email: plain })).status).toBe(200);
    const before = await countRows('users');
    // 'ａ' (U+FF41) and '＠' (U+FF20) are the full-width 'a' and '@'
    expect(answer(await register({ email: `\uFF41nn-${stamp}\uFF20broker.example` }))).toEqual([409, 'This e-mail is already registered']);
    expect(await countRows('users')).toBe(before);
    const login = await call('POST', '/api/auth/login', { body: { email: `\uFF41NN-${stamp}\uFF20BROKER.example`, password: 'secret1' } });
    expect([login.status, login.body.email]).toEqual([200, plain]);

    const accented = `jose\u0301-${stamp}@broker.example`; // e + combining acute
    expect((await register({ email: accented })).status).toBe(200);
    expect(answer(await register({ email: `jos\u00E9-${stamp}@broker.example` }))).toEqual([409, 'This e-mail is already registered']);
  });
});
