import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../auth/auth.messages';
import { users } from '../db/schema';
import { languageFromHeader } from '../lib/languages';
import { runReminders } from '../subscriptions/reminders';
import { call, createTeam, createUser, errorBody, getUser, PASSWORD, type TestUser, testEnv, userRowByEmail } from '../test/helpers';
import { mailsTo, order, PRICE } from '../test/idram';

/** The user's language (docs/decisions/0023-languages.md): stored, chosen at sign-in and in Profile, and followed by mails and Idram. */
const setLanguage = (who: TestUser, id: string, body: unknown) => call('PUT', `/api/user/update/language/${id}`, { token: who.token, body });
const login = (email: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call('POST', '/api/auth/login', { body: { email, password: PASSWORD, clientType: 0, ...extra }, headers });
const languageOf = async (id: string) => (await getUser(id))!.language;

describe('PUT /api/user/update/language/{id}', () => {
  it('saves the user its own language, answers it, and the user object returns it', async () => {
    const manager = await createUser('manager');
    expect(await languageOf(manager.id)).toBe('en');
    const res = await setLanguage(manager, manager.id, { language: 'hy' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Language updated', language: 'hy' });
    expect(await languageOf(manager.id)).toBe('hy');
    expect((await call('GET', `/api/user/${manager.id}`, { token: manager.token })).body.language).toBe('hy');
  });

  it('refuses a language the product does not speak, an empty body and a number with 400, and changes nothing', async () => {
    const agent = await createUser('agent');
    for (const body of [{ language: 'fr' }, {}, { language: 1 }, { language: 'RU' }]) {
      const res = await setLanguage(agent, agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody(AUTH_MESSAGES.language));
    }
    expect(await languageOf(agent.id)).toBe('en');
  });

  it("is the user's own choice: a manager may not set its agent's (403), another team's user is 404, no token 401; the admin may", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const agent = a.agents[0];
    expect((await setLanguage(a.manager, agent.id, { language: 'ru' })).status).toBe(403);
    expect((await setLanguage(a.manager, b.agents[0].id, { language: 'ru' })).status).toBe(404);
    expect((await call('PUT', `/api/user/update/language/${agent.id}`, { body: { language: 'ru' } })).status).toBe(401);
    expect(await languageOf(agent.id)).toBe('en');
    const admin = await createUser('admin');
    expect((await setLanguage(admin, agent.id, { language: 'ru' })).status).toBe(200);
    expect(await languageOf(agent.id)).toBe('ru');
  });

  it('30 simultaneous changes, three rounds: every call answers 200 and the row holds one of the values sent', async () => {
    const user = await createUser('manager');
    for (let round = 0; round < 3; round++) {
      const sent = Array.from({ length: 30 }, (_, i) => (['en', 'ru', 'hy'] as const)[(i + round) % 3]);
      const answers = await Promise.all(sent.map((language) => setLanguage(user, user.id, { language })));
      expect(answers.map((r) => r.status)).toEqual(sent.map(() => 200));
      expect(sent).toContain(await languageOf(user.id));
    }
  });
});

describe('the language at sign-in and registration', () => {
  it('a language picked on the login screen is saved on the user and answered with the login', async () => {
    const user = await createUser('manager');
    const res = await login(user.email, { language: 'ru' });
    expect(res.status).toBe(200);
    expect(res.body.language).toBe('ru');
    expect(await languageOf(user.id)).toBe('ru');
    // a later sign-in without a pick keeps it, whatever the browser says
    const again = await login(user.email, {}, { 'accept-language': 'hy-AM,hy;q=0.9' });
    expect(again.body.language).toBe('ru');
    expect(await languageOf(user.id)).toBe('ru');
  });

  it("at a user's first sign-in, the browser's language (Accept-Language) when it is one of ours; never after", async () => {
    const agent = await createUser('agent');
    const first = await login(agent.email, {}, { 'accept-language': 'hy-AM,hy;q=0.9,en;q=0.8' });
    expect(first.body.language).toBe('hy');
    expect(await languageOf(agent.id)).toBe('hy');
    const other = await createUser('agent');
    expect((await login(other.email, {}, { 'accept-language': 'de-DE,de;q=0.9' })).body.language).toBe('en');
    expect((await login(other.email, {}, { 'accept-language': 'ru' })).body.language).toBe('en');
    expect(await languageOf(other.id)).toBe('en');
  });

  it('a picked language that is not ours is refused with 400 and no session', async () => {
    const user = await createUser('manager');
    const res = await login(user.email, { language: 'de' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(AUTH_MESSAGES.language));
  });

  it("registration stores the screen's language, else the browser's, and the verification mail is written in it", async () => {
    const email = `ru-${Date.now()}@test.example`;
    const body = { name: 'Ruben', email, password: 'secret1', repeatPassword: 'secret1', country: 'AM', phone: '+37491234567' };
    const res = await call('POST', '/api/auth/register', { body, headers: { 'accept-language': 'ru-RU,ru;q=0.9' } });
    expect(res.status, res.text).toBe(200);
    const row = await userRowByEmail(email);
    expect(row!.language).toBe('ru');
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe('Подтвердите адрес электронной почты');
    expect(mail!.text).toContain('/emailVerify/');

    const hyEmail = `hy-${Date.now()}@test.example`;
    expect((await call('POST', '/api/auth/register', { body: { ...body, email: hyEmail, language: 'hy' }, headers: { 'accept-language': 'ru' } })).status).toBe(
      200,
    );
    expect((await userRowByEmail(hyEmail))!.language).toBe('hy');
    expect((await mailsTo(hyEmail))[0]!.subject).toBe('Հաստատեք ձեր էլ. հասցեն');
  });

  it('reads Accept-Language by its q-values', () => {
    expect(languageFromHeader('de;q=0.9, ru;q=0.5, hy;q=0.7')).toBe('hy');
    expect(languageFromHeader('fr, de')).toBeNull();
    expect(languageFromHeader('en-GB')).toBe('en');
    expect(languageFromHeader('hy;q=0, ru;q=0.1')).toBe('ru');
    expect(languageFromHeader(null)).toBeNull();
  });
});

describe('mails in the recipient language', () => {
  it('the password-reset mail goes out in the user language, and in English for an English user', async () => {
    const hy = await createUser('manager');
    await hy.db.update(users).set({ language: 'hy' }).where(eq(users.id, hy.id));
    const en = await createUser('manager');
    for (const who of [hy, en]) expect((await call('POST', '/api/auth/sendPasswordHash', { body: { email: who.email } })).status).toBe(200);
    const [hyMail] = await mailsTo(hy.email);
    expect(hyMail!.subject).toBe('Գաղտնաբառի վերականգնում');
    expect(hyMail!.text).toContain('Նոր գաղտնաբառ սահմանելու համար');
    expect(hyMail!.text).toContain('/passwordRecovery/');
    const [enMail] = await mailsTo(en.email);
    expect(enMail!.subject).toBe('Password recovery');
    expect(enMail!.text).toContain('To set a new password, open this link (valid for one hour):');
  });

  it("a reminder is written in the user's language, its days counted by the language's plural rules", async () => {
    const ru = await createUser('manager', { subscriptionDays: null });
    await ru.db
      .update(users)
      .set({ language: 'ru', subscriptionEndDate: new Date(Date.now() + 3 * 86_400_000 - 3_600_000) })
      .where(eq(users.id, ru.id));
    await runReminders(testEnv);
    const mail = (await mailsTo(ru.email)).find((m) => m.subject.startsWith('Ваша подписка FreightDesk заканчивается'));
    expect(mail, 'a Russian reminder').toBeTruthy();
    expect(mail!.subject).toMatch(/через [23] дня$/);
    expect(mail!.text).toContain('Здравствуйте');
    expect(mail!.text).toContain('по ереванскому времени');
  });
});

describe("Idram's page in the payer's language", () => {
  for (const [language, edp] of [
    ['hy', 'AM'],
    ['ru', 'RU'],
    ['en', 'EN'],
  ] as const) {
    it(`a payer whose language is ${language} is sent with EDP_LANGUAGE=${edp}`, async () => {
      const manager = await createUser('manager');
      await manager.db.update(users).set({ language }).where(eq(users.id, manager.id));
      const id = await order(manager, { amount: 1 });
      const page = await call('GET', `/api/payment/idram/pay/${id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`name="EDP_LANGUAGE" value="${edp}"`);
    });
  }

  it("the page that forwards to Idram and the order's description are in the payer's language (docs/decisions/0178-no-english-left.md)", async () => {
    const expected = {
      hy: {
        lang: 'hy',
        heading: '<h1>Անցնում ենք Idram-ի էջ…</h1>',
        button: 'Շարունակել Idram-ում',
        own: 'FreightDesk բաժանորդագրություն, 3 ամիս',
        agent: 'FreightDesk բաժանորդագրություն, 2 ամիս, A. A.',
        team: 'FreightDesk բաժանորդագրություն 2 գործակալի համար, յուրաքանչյուրին 1 ամիս',
        amount: `${(3 * PRICE).toLocaleString('ru-RU')} դր.`,
      },
      ru: {
        lang: 'ru',
        heading: '<h1>Переходим в Idram…</h1>',
        button: 'Перейти в Idram',
        own: 'Подписка FreightDesk на 3 месяца',
        agent: 'Подписка FreightDesk на 2 месяца для A. A.',
        team: 'Подписка FreightDesk для 2 агентов, каждому на 1 месяц',
        amount: `${(3 * PRICE).toLocaleString('ru-RU')} драм`,
      },
      en: {
        lang: 'en',
        heading: '<h1>Redirecting to Idram…</h1>',
        button: 'Continue to Idram',
        own: 'FreightDesk subscription, 3 months',
        agent: 'FreightDesk subscription, 2 months for A. A.',
        team: 'FreightDesk subscription for 2 agents, 1 month each',
        amount: `${(3 * PRICE).toLocaleString('en-US')} AMD`,
      },
    } as const;
    for (const [language, want] of Object.entries(expected) as [keyof typeof expected, (typeof expected)[keyof typeof expected]][]) {
      const manager = await createUser('manager', { subscriptionDays: 30 });
      const agents = [await createUser('agent', { parentId: manager.id, name: 'Ani Avagyan' }), await createUser('agent', { parentId: manager.id })];
      await manager.db.update(users).set({ language }).where(eq(users.id, manager.id));
      const page = async (id: string) => (await call('GET', `/api/payment/idram/pay/${id}`)).text;
      const own = await page(await order(manager, { amount: 3 }));
      expect(own, language).toContain(`<html lang="${want.lang}">`);
      expect(own, language).toContain(want.heading);
      expect(own, language).toContain(want.button);
      expect(own, language).toContain(`name="EDP_DESCRIPTION" value="${want.own}"`);
      expect(own, language).toContain(want.amount);
      expect(await page(await order(manager, { amount: 2, userToBePaidId: agents[0]!.id })), language).toContain(
        `name="EDP_DESCRIPTION" value="${want.agent}"`,
      );
      const team = await call('POST', '/api/payment/generateTeamLink', {
        token: manager.token,
        body: { paymentType: 'idram', userIds: agents.map((a) => a.id), amount: 1 },
      });
      expect(team.status, team.text).toBe(200);
      expect(await page(team.body.orderId), language).toContain(`name="EDP_DESCRIPTION" value="${want.team}"`);
      if (language !== 'en') expect(own, language).not.toMatch(/Redirecting|Description|Amount|Continue|subscription|month/);
    }
  });
});

describe('error codes beside the message', () => {
  it('a wrong password answers {message, code}; a message without a code answers {message} only', async () => {
    const user = await createUser('manager');
    const wrong = await call('POST', '/api/auth/login', { body: { email: user.email, password: 'nope-nope', clientType: 0 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: 'Wrong email or password', code: 'wrongCredentials' });
    const empty = await call('POST', '/api/auth/sendPasswordHash', { body: { email: '' } });
    expect(empty.body).toEqual({ message: 'Email is Empty', code: 'emailEmpty' });
    const other = await call('PUT', '/api/user/update/reminders/nobody', { token: user.token, body: { remindersEnabled: false } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'User not found', code: 'common.userNotFound' });
  });
});
