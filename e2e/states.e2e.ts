/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { filterBody } from '../scripts/filter-body.mjs';
import { expectNoA11yViolations, expectNoHorizontalOverflow } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginAs, shot } from './helpers';

/**
 * Decision 0018: a failed read is said as a failure (what failed, the server's message, the
 * request id, Retry), never shown as an empty list; a failure after data was shown keeps it;
 * offline is said in a banner and paying says it needs a connection.
 */

const failWith500 = (page: Page, glob: string, requestId: string) =>
  page.route(glob, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      headers: { 'x-request-id': requestId },
      body: JSON.stringify({ message: 'Something went wrong' }),
    }),
  );

async function managerWithFilter() {
  const manager = await createUser('manager');
  const mc = await apiCall('POST', '/api/mcSettings/add/', { name: 'State MC', lines: [1] }, manager.token);
  expect(mc.status).toBe(200);
  const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body as { _id: string }[];
  const add = await apiCall('POST', '/api/broker/add', filterBody({ name: 'Kept Broker', type: types[0]!._id }), manager.token);
  expect(add.status).toBe(200);
  return manager;
}

test.describe('Request states', () => {
  test('API 500 on Broker Filtering: the failure with its request id and Retry, never "No Filters"', async ({ page }) => {
    const manager = await managerWithFilter();
    await failWith500(page, '**/api/broker', 'req-500-filters');
    await loginAs(page, manager, '/companyFilters');
    const failed = page.getByTestId('request-failed');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Could not load the filters.');
    await expect(failed).toContainText('Something went wrong');
    await expect(failed.getByTestId('request-id')).toHaveText('Request id: req-500-filters');
    await expect(page.getByText('No Filters')).toHaveCount(0);
    await expect(page.getByText('Filters List (Total: 0)')).toHaveCount(0);
    await shot(page, 'states-filters-500');

    // the server answers again: Retry shows the list
    await page.unroute('**/api/broker');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('filters-table').getByText('Kept Broker')).toBeVisible();
    await expect(page.getByTestId('request-failed')).toHaveCount(0);
  });

  test('a failure after data was shown keeps the data, under one line with Retry', async ({ page }) => {
    const manager = await managerWithFilter();
    await loginAs(page, manager, '/companyFilters');
    const table = page.getByTestId('filters-table');
    await expect(table.getByText('Kept Broker')).toBeVisible();
    await failWith500(page, '**/api/broker', 'req-kept');
    const panel = page.getByRole('form', { name: 'Search Filters' });
    await panel.getByLabel('Company name').fill('nothing like it');
    await panel.getByRole('button', { name: 'Search' }).click();
    const failed = page.getByTestId('request-failed');
    await expect(failed).toContainText('Could not load the filters.');
    await expect(failed).toContainText('Showing what was loaded before.');
    await expect(failed.getByTestId('request-id')).toHaveText('Request id: req-kept');
    await expect(table.getByText('Kept Broker')).toBeVisible();
  });

  test('a failure without a request id says what failed and offers Retry; users list counts are not a false 0', async ({ page }) => {
    const admin = await createUser('admin');
    // the admin's list comes a page at a time (GET /api/user/page, decision 0187)
    const usersPage = (url: URL) => url.pathname === '/api/user/page';
    await page.route(usersPage, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The database is busy' }) })
        : route.fallback(),
    );
    await loginAs(page, admin, '/users');
    const failed = page.getByTestId('request-failed');
    await expect(failed).toContainText('Could not load the users. The database is busy');
    await expect(failed.getByTestId('request-id')).toHaveCount(0);
    await expect(page.getByText('No Users')).toHaveCount(0);
    await expect(page.getByTestId('total-agents')).not.toContainText('0');
    await page.unroute(usersPage);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('users-table')).toBeVisible();
  });

  test('offline: a banner says so, Pay with Idram says it needs a connection, and a new read says the browser is offline', async ({ page, context }) => {
    const manager = await managerWithFilter();
    // Broker Filtering's screen code is loaded while online, as in a tab used before the connection dropped
    await loginAs(page, manager, '/companyFilters');
    await expect(page.getByTestId('filters-table').getByText('Kept Broker')).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Main' }).first();
    await menu.getByRole('link', { name: 'Payment' }).click();
    const pay = page.getByTestId('new-payment').getByRole('button', { name: 'Pay with Idram' });
    await expect(pay).toBeEnabled();
    await context.setOffline(true);
    await expect(page.getByTestId('offline-banner')).toContainText('You are offline');
    await expect(pay).toBeDisabled();
    await expect(page.getByTestId('new-payment')).toContainText('You are offline: paying needs a connection.');
    await shot(page, 'states-offline-payment');

    // a search needs the server: it says the browser is offline and keeps the rows shown before
    await menu.getByRole('link', { name: 'Broker Filtering' }).click();
    const panel = page.getByRole('form', { name: 'Search Filters' });
    await panel.getByLabel('Company name').fill('kept');
    await panel.getByRole('button', { name: 'Search' }).click();
    const failed = page.getByTestId('request-failed');
    await expect(failed).toContainText('Could not load the filters. You are offline');
    await expect(page.getByTestId('filters-table').getByText('Kept Broker')).toBeVisible();

    // back online: the read runs again by itself (SWR revalidates on reconnect; Retry is tested above)
    await context.setOffline(false);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);
    await expect(page.getByTestId('request-failed')).toHaveCount(0);
    await expect(page.getByTestId('filters-table').getByText('Kept Broker')).toBeVisible();
  });
});

/**
 * Issue 43 item 5: a director's Contact History whose managers read fails says so with Retry,
 * never "No managers" with empty user and MC lists; so do the user and MC lists of the manager
 * it picks.
 */
test("a director's Contact History: the managers, users and MCs that did not load say so, and Retry loads them", async ({ page }) => {
  const director = await createUser('director');
  const m1 = await createUser('manager', { parentId: director.id, name: 'Mira Manager' });
  const m2 = await createUser('manager', { parentId: director.id, name: 'Nora Manager' });
  await createUser('agent', { parentId: m2.id, name: 'Ned Agent' });
  expect((await apiCall('POST', '/api/mcSettings/add/', { name: 'Mira MC', lines: [1] }, m1.token)).status).toBe(200);
  expect((await apiCall('POST', '/api/mcSettings/add/', { name: 'Nora MC', lines: [1] }, m2.token)).status).toBe(200);
  const users = page.getByRole('group', { name: 'Users' });
  const mcs = page.getByRole('group', { name: 'MC' });
  const managerField = page.getByRole('group', { name: 'Manager' });

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await failWith500(page, '**/api/user/directorChildManagers', 'req-managers');
    await loginAs(page, director, '/callHistory');
    const failed = managerField.getByTestId('request-failed');
    await expect(failed).toContainText('Could not load the managers. Something went wrong.');
    await expect(failed.getByTestId('request-id')).toHaveText('Request id: req-managers');
    await expect(page.getByText('No managers')).toHaveCount(0);
    // the lists wait for a manager: not "No users", not "No MCs yet"
    await expect(users).toContainText('Shown once the managers are loaded');
    await expect(mcs).toContainText('Shown once the managers are loaded');
    await expect(page.getByText('No users')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Load', exact: true })).toBeDisabled();
    await expect(page.getByTestId('history-total')).toHaveText('Total: —');
    await expectNoA11yViolations(page, `contact history, managers failed, ${width}`);
    await expectNoHorizontalOverflow(page, `contact history, managers failed, ${width}`);
    await shot(page, `states-history-managers-failed-${width}`);

    // the server answers again: Retry lists the managers and the first one's team
    await page.unroute('**/api/user/directorChildManagers');
    await failed.getByRole('button', { name: 'Retry' }).click();
    const select = page.getByLabel('Manager', { exact: true });
    await expect(select.locator('option')).toHaveCount(2);
    await select.selectOption(m1.id);
    await expect(users.getByText('Mira Manager (manager)')).toBeVisible();
    await expect(mcs.getByText('Mira MC')).toBeVisible();
    await expect(page.getByTestId('request-failed')).toHaveCount(0);
  }

  // the picked manager's users and MCs fail: each list says so, and Load waits
  await failWith500(page, '**/api/user/managerChildUsers', 'req-users');
  await failWith500(page, '**/api/mcSettings/byParentId', 'req-mcs');
  await page.getByLabel('Manager', { exact: true }).selectOption(m2.id);
  await expect(users.getByTestId('request-failed')).toContainText('Could not load the users. Something went wrong.');
  await expect(page.getByText('Showing what was loaded before.')).toHaveCount(0);
  await expect(mcs.getByTestId('request-failed')).toContainText('Could not load the MCs. Something went wrong.');
  await expect(page.getByText('No MCs yet')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Load', exact: true })).toBeDisabled();
  await shot(page, 'states-history-lists-failed-390');
  await page.unroute('**/api/user/managerChildUsers');
  await page.unroute('**/api/mcSettings/byParentId');
  await users.getByRole('button', { name: 'Retry' }).click();
  await expect(users.getByText('Ned Agent')).toBeVisible();
  await mcs.getByRole('button', { name: 'Retry' }).click();
  await expect(mcs.getByText('Nora MC')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load', exact: true })).toBeEnabled();
});
