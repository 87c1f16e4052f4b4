/// <reference lib="dom" />
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

  test("is the admin's only: a manager is sent to its own first screen", async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/analytics/');
    await page.waitForURL((url) => !url.pathname.startsWith('/analytics'));
    await expect(page.getByRole('link', { name: 'Analytics' })).toHaveCount(0);
  });
});
