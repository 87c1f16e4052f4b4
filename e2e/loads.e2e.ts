/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot } from './helpers';

// the agent deletes one of the loads, then the manager sees what is left: one story, in order
test.describe.configure({ mode: 'serial' });

let manager: E2EUser;
let agent: E2EUser;
let other: E2EUser;
test.beforeAll(async () => {
  manager = await createUser('manager', { name: 'Mona Manager' });
  agent = await createUser('agent', { parentId: manager.id, name: 'Arthur Agent' });
  other = await createUser('manager', { name: 'Other Team Manager' });
  const add = (who: E2EUser, brokerName: string, origin: string, dest: string, hoursAgo: number) =>
    apiCall(
      'POST',
      '/api/activeLoad/add',
      { clientId: `${brokerName.replace(/\W+/g, '-')}-${who.id}`, brokerName, origin, dest, loadDate: '2026-07-14', date: Date.now() - hoursAgo * 3600_000 },
      who.token,
    );
  for (const res of await Promise.all([
    add(agent, 'Coyote Logistics', 'Atlanta, GA', 'Miami, FL', 1),
    add(agent, 'Echo Global Logistics', 'Chicago, IL', 'Dallas, TX', 5),
    add(manager, 'Landstar', 'Denver, CO', 'Phoenix, AZ', 3),
    add(other, 'Other Team Broker', 'Reno, NV', 'Fresno, CA', 2),
  ]))
    expect(res.status).toBe(201);
});

const rows = (page: Page) => page.locator('[data-testid="loads-table"] tbody tr');

test.describe('Active loads', () => {
  test('agent: My active loads, deletes one after confirming', async ({ page }) => {
    await loginAs(page, agent, '/activeLoads');
    await expect(page.getByRole('heading', { name: 'My active loads' })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
    for (const col of ['Agent', 'Company', 'Load', 'Date', 'Action']) await expect(page.locator('th', { hasText: col }).first()).toBeVisible();
    await expect(rows(page).nth(0)).toContainText('Arthur Agent');
    await expect(rows(page).nth(0)).toContainText('Coyote Logistics');
    await expect(rows(page).nth(0)).toHaveText(/Atlanta, GA →\s*(to)?\s*Miami, FL/);
    await expect(rows(page).nth(1)).toContainText('Echo Global Logistics');
    await expect(rows(page).filter({ hasText: 'Landstar' })).toHaveCount(0);
    await expect(page.getByTestId('loads-total')).toHaveText('Total: 2');
    await shot(page, 'loads-agent');

    await page.getByRole('button', { name: 'Delete load Chicago, IL to Dallas, TX' }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete the load Chicago, IL → Dallas, TX (Echo Global Logistics)?');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(2);
    await page.getByRole('button', { name: 'Delete load Chicago, IL to Dallas, TX' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('toast').first()).toContainText('Load deleted');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Coyote Logistics');
    const mine = await apiCall('GET', '/api/activeLoad/my', undefined, agent.token);
    expect(mine.body.map((l: { brokerName: string }) => l.brokerName)).toEqual(['Coyote Logistics']);
  });

  test("manager: the team's active loads, deletes its agent's load", async ({ page }) => {
    await loginAs(page, manager, '/callHistory');
    await page.getByRole('link', { name: "Team's active loads" }).click();
    await expect(page.getByRole('heading', { name: "My team's active loads" })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).filter({ hasText: 'Mona Manager' }).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Arthur Agent' }).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Other Team Broker' })).toHaveCount(0);
    await page.getByLabel('Search').fill('coyote');
    await expect(rows(page)).toHaveCount(1);
    await page.getByLabel('Search').fill('');
    await expect(rows(page)).toHaveCount(2);
    await shot(page, 'loads-manager');

    await page.getByRole('button', { name: 'Delete load Atlanta, GA to Miami, FL' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Landstar');
    expect((await apiCall('GET', '/api/activeLoad/my', undefined, agent.token)).body).toEqual([]);
    // the other team's load is untouched
    expect((await apiCall('POST', '/api/activeLoad/team', {}, other.token)).body).toHaveLength(1);
  });

  test('director: the screen is not there; it lands on Contact History', async ({ page }) => {
    const director = await createUser('director');
    await loginAs(page, director, '/activeLoads');
    await page.waitForURL('**/callHistory');
    await expect(page.getByRole('heading', { name: 'Contact History' })).toBeVisible();
    await expect(page.getByText('active loads')).toHaveCount(0);
  });
});
