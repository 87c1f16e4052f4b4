/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { filterBody } from '../scripts/filter-body.mjs';
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
    await page.route('**/api/user', (route) =>
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
    await page.unroute('**/api/user');
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
