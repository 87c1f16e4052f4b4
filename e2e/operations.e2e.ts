import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiCall, createUser, daysToYerevanEvening, loginAs, shot, toast } from './helpers';

const ROOT = path.resolve(import.meta.dirname, '..');
const DAY = 86_400_000;

/** The reminders' subjects in the dev outbox for one address. */
async function remindersTo(email: string): Promise<string[]> {
  const outbox = (await apiCall<{ to: string; subject: string }[]>('GET', '/api/dev/outbox')).body;
  return outbox.filter((m) => m.to === email && m.subject.startsWith('Your FreightDesk subscription ends')).map((m) => m.subject);
}

test.describe('operations (issue 29)', () => {
  test('the reminders job through the documented local command, two days ahead: the 7/3/1/0-day mails, once', async () => {
    // the job's clock two days from now: a subscription ending d calendar days after that day gets the d-day reminder
    const now = new Date(Date.now() + 2 * DAY).toISOString();
    const ends = { seven: 7, three: 3, one: 1, zero: 0, five: 5, ten: 10 } as const;
    const users = Object.fromEntries(
      await Promise.all(Object.entries(ends).map(async ([name, d]) => [name, await createUser('agent', { subscriptionDays: daysToYerevanEvening(2 + d) })])),
    ) as Record<keyof typeof ends, Awaited<ReturnType<typeof createUser>>>;

    // README, "Scheduled jobs locally": curl "http://localhost:8787/api/dev/scheduled?cron=0+6+*+*+*&now=…"
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

  for (const viewport of [
    { name: 'desktop', width: 1366, height: 860 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`the admin sees a mail that failed for good with its error and resends it (${viewport.name}, ${viewport.width} px)`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const admin = await createUser('admin');
      const to = `bounced-${Date.now().toString(36)}@e2e.example`;
      const id = `e2e${Date.now().toString(36)}`;
      // a mail the queue gave up on, as the dead-letter consumer leaves it, written straight into the local D1
      execFileSync(
        path.join(ROOT, 'node_modules', '.bin', 'wrangler'),
        [
          'd1',
          'execute',
          'DB',
          '--local',
          '--persist-to',
          process.env.E2E_STATE!,
          '--command',
          `insert into mails (id, kind, "to", subject, text, html, status, idempotency_key, attempts, last_error, created_at, next_attempt_at, failed_at)
           values ('${id}', 'receipt', '${to}', 'Receipt for your FreightDesk order #77', 'text', '<p>html</p>', 'failed', 'mail/${id}', 11,
           '503 Service unavailable', ${Date.now() - 3 * 3_600_000}, ${Date.now()}, ${Date.now()})`,
        ],
        { cwd: ROOT, env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' }, stdio: 'ignore' },
      );

      await loginAs(page, admin, '/users');
      const nav = page.getByRole('navigation');
      if (viewport.width < 768) await page.getByRole('button', { name: 'Menu' }).click();
      await nav.getByRole('link', { name: 'Failed Mails' }).click();
      await expect(page.getByRole('heading', { name: 'Failed Mails', exact: true })).toBeVisible();
      await expect(page).toHaveTitle(/Failed Mails/);
      const item = page.getByTestId('failed-mail').filter({ hasText: to });
      await expect(item).toContainText('Receipt');
      await expect(item).toContainText('Receipt for your FreightDesk order #77');
      await expect(item).toContainText('after 11 tries');
      await expect(item).toContainText('503 Service unavailable');
      // nothing overflows the screen
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `failed-mails-${viewport.name}`);

      await item.getByRole('button', { name: `Resend Receipt to ${to}` }).click();
      await expect(toast(page, 'The mail is queued again')).toBeVisible();
      await expect(page.getByTestId('failed-mail').filter({ hasText: to })).toHaveCount(0);
    });
  }
});
