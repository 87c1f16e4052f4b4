/// <reference lib="dom" />
import fs from 'node:fs';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginAs, PASSWORD, shot, usDay } from './helpers';

const dayValue = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

test.describe('Analytics', () => {
  test('admin loads the Login History: a manager with three agents, two of whom logged in; the total online; the daily chart', async ({ page }) => {
    const admin = await createUser('admin');
    // createUser logs each one in through the API: the manager and two agents have logged in today
    const manager = await createUser('manager', { name: 'Analytics Manager' });
    await createUser('agent', { parentId: manager.id });
    await createUser('agent', { parentId: manager.id });
    const quiet = await apiCall('POST', '/api/dev/users', {
      userType: 'agent',
      email: `quiet-${Date.now().toString(36)}@e2e.example`,
      password: PASSWORD,
      name: 'Quiet Agent',
      parentId: manager.id,
    });
    expect(quiet.status).toBe(200);
    const idle = await apiCall('POST', '/api/dev/users', {
      userType: 'manager',
      email: `idle-${Date.now().toString(36)}@e2e.example`,
      password: PASSWORD,
      name: 'Idle Manager',
    });

    await loginAs(page, admin, '/analytics/');
    await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
    const from = page.getByLabel('From');
    const since = dayValue(new Date(Date.now() - 7 * 86_400_000));
    await expect(from).toHaveValue(usDay(since));
    for (const col of ['Manager Email', 'Total Agents', 'Logged In Agents', 'Manager Login']) {
      await expect(page.locator('[data-testid="login-history"] th', { hasText: col })).toHaveCount(1);
    }
    const search = page.getByTestId('login-history').getByLabel('Search');
    await search.fill(manager.email);
    const row = page.locator('[data-testid="login-history"] tbody tr');
    await expect(row.first().locator('td')).toHaveText([manager.email, '3', '2', 'Yes']);
    await expect(row).toHaveCount(1);
    await search.fill(idle.body.email);
    await expect(row.first().locator('td')).toHaveText([idle.body.email, '0', '0', 'No']);
    await search.fill('');

    // the total online: the managers and agents who logged in since the date (this run's users at least)
    const online = page.getByTestId('total-online').locator('strong');
    await expect.poll(async () => Number(await online.textContent())).toBeGreaterThanOrEqual(3);
    // the screen and the API agree (the browser tests run one at a time, so no login lands in between)
    const dateFrom = new Date(`${since}T00:00:00`).getTime();
    const api = await apiCall('POST', '/api/analytics/loginHistory', { dateFrom }, admin.token);
    await expect(online).toHaveText(String(api.body.totalOnlineAmount));
    await expect(page.getByTestId('daily-logins-chart').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('daily-logins-chart').locator('.recharts-bar-rectangle').first()).toBeAttached();
    await shot(page, 'analytics-admin');

    // a future date is refused on the screen; another date reloads
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    await from.fill(dayValue(tomorrow));
    await page.getByRole('button', { name: 'Load' }).click();
    await expect(page.getByText('The From date cannot be in the future')).toBeVisible();
    await from.fill(dayValue(new Date()));
    await page.getByRole('button', { name: 'Load' }).click();
    await expect(page.getByText('The From date cannot be in the future')).toHaveCount(0);
    await expect(
      page.getByTestId('total-online').getByText(`logged in since ${new Date().toLocaleDateString(undefined, { dateStyle: 'medium' })}`),
    ).toBeVisible();
  });

  test('Login History reads a page at a time: the first page, the next, and a failed page said with Retry', async ({ page }) => {
    const admin = await createUser('admin');
    const tag = `lhp${Date.now().toString(36)}`;
    const emails: string[] = [];
    for (let n = 0; n < 12; n++) {
      const email = `${tag}-${String(n).padStart(2, '0')}@e2e.example`;
      const made = await apiCall('POST', '/api/dev/users', { userType: 'manager', email, password: PASSWORD, name: `Paged ${n}` });
      expect(made.status).toBe(200);
      emails.push(email);
    }
    const asked: { dateFrom: number; cursor?: string; q?: string; limit?: number }[] = [];
    let wholeCalls = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/analytics/loginHistory') wholeCalls++;
    });
    let failPage = true;
    await page.route(
      (url) => url.pathname === '/api/analytics/loginHistory/page',
      async (route) => {
        const body = route.request().postDataJSON();
        asked.push(body);
        if (body.cursor && failPage) return route.fulfill({ status: 500, json: { message: 'Something went wrong' } });
        return route.continue();
      },
    );
    await loginAs(page, admin, '/analytics/');
    const rows = page.locator('[data-testid="login-history"] tbody tr');
    await expect(rows.first()).toBeVisible();
    // the headline is the server's, over every manager (as the whole list's)
    const whole = await apiCall('POST', '/api/analytics/loginHistory', { dateFrom: asked[0]!.dateFrom }, admin.token);
    const managersIn = whole.body.items.filter((i: { managerLoggedIn: boolean }) => i.managerLoggedIn).length;
    await expect(page.locator('.stat-row')).toContainText(`${managersIn} of ${whole.body.items.length}`);

    await page.getByTestId('login-history').getByLabel('Search').fill(tag);
    await expect(rows).toHaveCount(10);
    await expect(rows.locator('td:first-child')).toHaveText(emails.slice(0, 10));
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(page.getByTestId('rows-shown')).toHaveText(`Showing 12 of ${whole.body.items.length}`);
    expect(asked.at(-1)).toMatchObject({ q: tag, limit: 10 });

    // the next page fails: said as a failure with Retry, never as an empty list
    await page.getByRole('button', { name: 'Next' }).click();
    const failed = page.getByTestId('request-failed');
    await expect(failed).toContainText('Something went wrong');
    await expect(page.getByTestId('login-history')).toHaveCount(0);
    fs.mkdirSync('/tmp/shots-login-page', { recursive: true });
    await page.screenshot({ path: '/tmp/shots-login-page/failed-page.png', fullPage: true });
    failPage = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(rows).toHaveCount(2);
    await expect(rows.locator('td:first-child')).toHaveText(emails.slice(10));
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    expect(asked.at(-1)?.cursor).toBeTruthy();
    // the chart stays (its days come with the first page only)
    await expect(page.getByTestId('daily-logins-chart').locator('.recharts-bar-rectangle').first()).toBeAttached();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/shots-login-page/page-2-${width}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(rows).toHaveCount(10);
    await page.screenshot({ path: '/tmp/shots-login-page/page-1-390.png', fullPage: true });
    // the whole list is no longer read by the screen
    expect(wholeCalls).toBe(0);
  });

  test("is the admin's only: a manager is sent to its own first screen", async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/analytics/');
    await page.waitForURL((url) => !url.pathname.startsWith('/analytics'));
    await expect(page.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
  });
});
