import { api, type Server } from './extension-harness';
import { expect, test } from './fixtures';
import { apiCall, createUser, daysToYerevanEvening, PASSWORD, shot, storeSession, yerevanDayAt } from './helpers';

/** The reminders' subjects in the dev outbox for one address. */
async function remindersTo(email: string): Promise<string[]> {
  const outbox = (await apiCall<{ to: string; subject: string }[]>('GET', '/api/dev/outbox')).body;
  return outbox.filter((m) => m.to === email && m.subject.startsWith('Your FreightDesk subscription ends')).map((m) => m.subject);
}

test.describe('operations (decision 0017)', () => {
  test('the reminders job through the documented local command, two days ahead: the 7/3/1/0-day mails, once', async () => {
    // the job's clock at its own hour (06:00 UTC) two days from today: a subscription ending d
    // calendar days after that day gets the d-day reminder. Not now + 48 h: after 18:00 in
    // Yerevan that clock is past the 0-day subscription's end (18:00), which has then ended
    // and rightly gets no "ends today" (the CI ran at such an hour once)
    const now = yerevanDayAt(2, 6).toISOString();
    const ends = { seven: 7, three: 3, one: 1, zero: 0, five: 5, ten: 10 } as const;
    const users = Object.fromEntries(
      await Promise.all(Object.entries(ends).map(async ([name, d]) => [name, await createUser('agent', { subscriptionDays: daysToYerevanEvening(2 + d) })])),
    ) as Record<keyof typeof ends, Awaited<ReturnType<typeof createUser>>>;

    // docs/guides/operations.md, "Scheduled jobs locally": curl "http://localhost:8787/api/dev/scheduled?cron=0+6+*+*+*&now=…"
    const run = await apiCall('GET', `/api/dev/scheduled?cron=${encodeURIComponent('0 6 * * *')}&now=${encodeURIComponent(now)}`);
    expect(run.status).toBe(200);
    expect(run.body.now).toBe(now);
    expect(run.body.results['0 6 * * *'].reminders).toBeGreaterThanOrEqual(5);

    expect(await remindersTo(users.seven.email)).toEqual(['Your FreightDesk subscription ends in 7 days']);
    expect(await remindersTo(users.three.email)).toEqual(['Your FreightDesk subscription ends in 3 days']);
    expect(await remindersTo(users.one.email)).toEqual(['Your FreightDesk subscription ends in 1 day']);
    expect(await remindersTo(users.zero.email)).toEqual(['Your FreightDesk subscription ends today']);
    // 5 days left is under the 7-day threshold: its reminder, once
    expect(await remindersTo(users.five.email)).toEqual(['Your FreightDesk subscription ends in 5 days']);
    expect(await remindersTo(users.ten.email)).toEqual([]);

    // the same run again sends nothing twice
    const again = await apiCall('GET', `/api/dev/scheduled?cron=${encodeURIComponent('0 6 * * *')}&now=${encodeURIComponent(now)}`);
    expect(again.status).toBe(200);
    for (const user of Object.values(users)) expect((await remindersTo(user.email)).length).toBeLessThanOrEqual(1);

    // a cron that names no job is refused
    const bad = await apiCall('GET', '/api/dev/scheduled?cron=1+2+3+4+5');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('cron: one of');
  });

  test.describe('a mail the provider refuses for good', () => {
    // the tests' own Worker (e2e/fixtures.ts), which sends through "Resend" (a stub on the loopback
    // address), so a mail really fails: the stub rejects the domain's mails (422) until told to accept them
    let server: Server;
    let stub: { url: string };
    test.beforeAll(async ({ ownServer, standIns }) => {
      server = ownServer;
      stub = standIns.mail;
    });

    for (const viewport of [
      { name: 'desktop', width: 1366, height: 860 },
      { name: 'phone', width: 390, height: 844 },
    ]) {
      test(`the admin sees it with its error on Failed Mails and resends it once (${viewport.name}, ${viewport.width} px)`, async ({ page }) => {
        await page.setViewportSize(viewport);
        const domain = `bounce-${viewport.name}-${Date.now().toString(36)}.test`;
        const delivered = async () => ((await (await fetch(`${stub.url}/deliveries?domain=${domain}`)).json()) as { deliveries: unknown[] }).deliveries;
        const control = (mode: string) => fetch(`${stub.url}/control`, { method: 'POST', body: JSON.stringify({ domain, mode }) });
        await control('reject');
        const adminEmail = `admin-${viewport.name}-${Date.now().toString(36)}@e2e.example`;
        expect((await api(server, 'POST', '/api/dev/users', { userType: 'admin', email: adminEmail, password: PASSWORD, name: 'Ops Admin' })).status).toBe(200);
        const to = `someone@${domain}`;
        expect((await api(server, 'POST', '/api/dev/users', { userType: 'agent', email: to, password: PASSWORD, name: 'Bounced Agent' })).status).toBe(200);
        expect((await api(server, 'POST', '/api/auth/sendPasswordHash', { email: to })).status).toBe(200);

        const login = await api(server, 'POST', '/api/auth/login', { email: adminEmail, password: PASSWORD, clientType: 0 });
        await expect
          .poll(async () => (await api(server, 'GET', '/api/mail/failed', undefined, login.body.accessToken)).body.total, { timeout: 30_000 })
          .toBeGreaterThan(0);

        await storeSession(page, login.body, server.url);
        await page.goto(`${server.url}/users`);
        if (viewport.width < 768) await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Failed Mails' }).click();
        await expect(page.getByRole('heading', { name: 'Failed Mails', exact: true })).toBeVisible();
        await expect(page).toHaveTitle(/Failed Mails/);
        const item = page.getByTestId('failed-mail').filter({ hasText: to });
        await expect(item).toContainText('Password reset');
        await expect(item).toContainText('Password recovery');
        await expect(item).toContainText('after 1 try');
        await expect(item).toContainText(`422 The to address is invalid: ${to}`);
        // nothing wider than the screen
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
        await shot(page, `failed-mails-${viewport.name}`);

        // the address is fixed at the provider: Resend delivers it, once
        await control('accept');
        await item.getByRole('button', { name: `Resend Password reset to ${to}` }).click();
        await expect(page.getByTestId('toast').filter({ hasText: 'The mail is queued again' }).first()).toBeVisible();
        await expect(page.getByTestId('failed-mail').filter({ hasText: to })).toHaveCount(0);
        await expect.poll(async () => (await delivered()).length, { timeout: 30_000 }).toBe(1);
        await page.waitForTimeout(2000);
        expect(await delivered()).toHaveLength(1);
      });
    }
  });
});
