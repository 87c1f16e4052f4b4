/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, launch, loginAs, newPage, PASSWORD, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const dayValue = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('Analytics', () => {
  it('admin loads the Login History: a manager with three agents, two of whom logged in; the total online; the daily chart', async () => {
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

    const page = await newPage(browser);
    await loginAs(page, admin, '/analytics/');
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    const from = page.getByLabel('From');
    expect(await from.inputValue()).toBe(dayValue(new Date(Date.now() - 7 * 86_400_000)));
    await page.getByTestId('login-history').waitFor();
    for (const col of ['Manager Email', 'Total Agents', 'Logged In Agents', 'Manager Login']) {
      expect(await page.locator('[data-testid="login-history"] th', { hasText: col }).count()).toBe(1);
    }
    const search = page.getByTestId('login-history').getByLabel('Search');
    await search.fill(manager.email);
    const row = page.locator('[data-testid="login-history"] tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.first().locator('td').allTextContents()).toEqual([manager.email, '3', '2', 'Yes']);
    await search.fill(idle.body.email);
    await expect.poll(() => row.first().locator('td').allTextContents()).toEqual([idle.body.email, '0', '0', 'No']);
    await search.fill('');

    // the total online: the managers and agents who logged in since the date (this run's users at least)
    const online = Number(await page.getByTestId('total-online').locator('strong').textContent());
    expect(online).toBeGreaterThanOrEqual(3);
    const api = await apiCall('POST', '/api/analytics/loginHistory', { dateFrom: new Date(`${await from.inputValue()}T00:00:00`).getTime() }, admin.token);
    expect(api.body.totalOnlineAmount).toBe(online);
    await page.getByTestId('daily-logins-chart').locator('svg').first().waitFor();
    expect(await page.getByTestId('daily-logins-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await shot(page, 'analytics-admin');

    // a future date is refused on the screen; another date reloads
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    await from.fill(dayValue(tomorrow));
    await page.getByRole('button', { name: 'Load' }).click();
    await page.getByText('The From date cannot be in the future').waitFor();
    await from.fill(dayValue(new Date()));
    await page.getByRole('button', { name: 'Load' }).click();
    await expect.poll(() => page.getByText('The From date cannot be in the future').count()).toBe(0);
    await page
      .getByTestId('total-online')
      .getByText(`logged in since ${new Date().toLocaleDateString(undefined, { dateStyle: 'medium' })}`)
      .waitFor();
    await page.close();
  });

  it("is the admin's only: a manager is sent to its own first screen", async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/analytics/');
    await page.waitForURL((url) => !url.pathname.startsWith('/analytics'));
    expect(await page.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    await page.close();
  });
});
