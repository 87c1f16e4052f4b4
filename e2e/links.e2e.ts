/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, baseURL, createUser, loginAs, shot } from './helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

/** Opens a short link as another person's browser would: a navigation, not following the 302. */
async function openAsVisitor(to: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseURL()}${new URL(to).pathname}`, {
    redirect: 'manual',
    headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html', 'user-agent': FIREFOX, ...headers },
  });
  await res.arrayBuffer();
  return res;
}

async function createLink(token: string, from: string, alias?: string) {
  const res = await apiCall('POST', '/api/link/generate', { from, alias }, token);
  expect(res.status).toBe(200);
  return res.body as { _id: string; to: string; from: string; date: string };
}

const rows = (page: Page) => page.getByTestId('links-table').locator('tbody tr');

test.describe('link shortener screens', () => {
  test('Links list: No Links, then numbered rows with From, To and Open (manager)', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/links');
    await expect(page.getByRole('heading', { name: 'Links' })).toBeVisible();
    await expect(page.getByText('No Links')).toBeVisible();
    await expect(page.getByTestId('links-table').locator('th')).toHaveText(['Number ↕', 'From ↕', 'To ↕', 'Open']);
    await shot(page, 'links-list-empty-manager');

    const first = await createLink(manager.token, 'https://example.com/loads/board?lane=LA-NY');
    const second = await createLink(manager.token, 'https://carriers.example.org/mc/123456');
    await page.reload();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).nth(0).locator('td')).toHaveText(['1', first.from, first.to, 'Open']);
    await expect(rows(page).nth(1).locator('td')).toHaveText(['2', second.from, second.to, 'Open']);
    await shot(page, 'links-list-manager');

    await rows(page).nth(1).getByRole('link', { name: 'Open link 2' }).click();
    await page.waitForURL(`**/detail/${second._id}`);
    await expect(page.getByTestId('click-amount')).toBeVisible();
    await expect(page.getByTestId('link-detail')).toContainText(second.from);
    await page.getByRole('link', { name: '← Links' }).click();
    await page.waitForURL('**/links');
    await page.getByRole('link', { name: 'Create link' }).click();
    await page.waitForURL('**/create');
  });

  test('Create: one input, Enter submits, a refused link says why, then the new detail (manager)', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/create');
    const input = page.getByLabel('Enter Link');
    await expect(input).toHaveAttribute('placeholder', 'write your link');
    await expect(page.locator('input:visible')).toHaveCount(1);

    for (const [bad, message] of [
      ['javascript:alert(1)', 'Enter a link starting with http:// or https://'],
      ['https://user:pw@example.com/', 'Links with a user name or password are not allowed'],
      // a link back to this very site (the browser's own origin, another spelling of it) would loop
      [`${baseURL().replace('127.0.0.1', '2130706433')}/%73/loop`, 'Links to this site are not allowed: a short link must lead somewhere else'],
    ]) {
      await input.fill(bad!);
      await input.press('Enter');
      await expect(page.getByText(message!)).toBeVisible();
    }
    await expect(page).toHaveURL(/\/create$/);
    expect((await apiCall('GET', '/api/link', undefined, manager.token)).body).toEqual([]);
    await shot(page, 'links-create-refused-manager');

    await input.fill('https://example.com/loads/board?lane=LA-NY');
    await input.press('Enter');
    await page.waitForURL(/\/detail\/[A-Za-z0-9]+$/);
    await expect(page.getByRole('heading', { name: 'Link', exact: true })).toBeVisible();
    const [created] = (await apiCall('GET', '/api/link', undefined, manager.token)).body;
    await expect(page).toHaveURL(`${baseURL()}/detail/${created._id}`);
    await expect(page.getByTestId('link-detail')).toContainText('https://example.com/loads/board?lane=LA-NY');

    // the optional alias, behind its disclosure
    await page.goto('/create');
    await page.getByRole('button', { name: /Custom alias/ }).click();
    const alias = `lane-${Date.now().toString(36)}`;
    await page.getByLabel('Alias').fill(alias);
    await page.getByLabel('Enter Link').fill('https://example.com/alias-target');
    await shot(page, 'links-create-alias-manager');
    await page.getByLabel('Alias').press('Enter');
    await page.waitForURL(/\/detail\//);
    await expect(page.getByTestId('short-link')).toHaveText(`${new URL(created.to).origin}/s/${alias}`);
  });

  test('Detail: the exact count after visits from other clients, the chart, QR, copy and disable (manager)', async ({ page }) => {
    const manager = await createUser('manager');
    const link = await createLink(manager.token, 'https://example.com/loads/board?lane=LA-NY');
    await page.context().route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Load board</h1>' }));
    await loginAs(page, manager, `/detail/${link._id}`);
    await expect(page.getByRole('heading', { name: 'Link', exact: true })).toBeVisible();
    const detail = page.getByTestId('link-detail');
    await expect(detail.locator('dt')).toHaveText(['Your Link', 'From Link', 'Click Amount', 'Creation Date']);
    const shortLink = page.getByTestId('short-link');
    await expect(shortLink).toHaveText(link.to);
    await expect(shortLink).toHaveAttribute('target', '_blank');
    await expect(page.getByTestId('click-amount')).toHaveText('0');
    // the one date-and-time format (web/lib/format.ts), in the browser's locale
    const localDate = await page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
      link.date,
    );
    await expect(detail.locator('dd').nth(3)).toHaveText(localDate);
    await expect(
      page
        .getByRole('img', { name: `QR code of ${link.to}` })
        .locator('svg path')
        .first(),
    ).toBeAttached();

    // 40 people at once from another client, 4 bots, and one click on Your Link (a new tab)
    const visits = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => openAsVisitor(link.to, i % 4 ? {} : { referer: 'https://mail.example.net/inbox' })),
      ...Array.from({ length: 4 }, () => openAsVisitor(link.to, { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' })),
    ]);
    for (const res of visits) {
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(link.from);
      expect(res.headers.get('cache-control')).toBeNull();
    }
    const [popup] = await Promise.all([page.waitForEvent('popup'), shortLink.click()]);
    await popup.waitForURL(link.from);
    await expect(popup.getByRole('heading', { name: 'Load board' })).toBeVisible();
    await popup.close();

    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('click-amount').textContent();
        },
        { timeout: 20_000, intervals: [500] },
      )
      .toBe('45');
    await expect(page.getByTestId('clicks-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
    const referrers = page.getByRole('region', { name: 'Referrers' });
    await expect(referrers.getByText('mail.example.net')).toHaveCount(1);
    await expect(page.getByTestId('people-bots')).toHaveText(/^40 people in the last 30 days; 5 bot visits/);
    await shot(page, 'links-detail-manager');

    await page.getByRole('button', { name: 'Disable link' }).click();
    await expect(page.getByRole('button', { name: 'Enable link' })).toBeVisible();
    await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
    expect((await openAsVisitor(link.to)).status).toBe(410);
    await shot(page, 'links-detail-disabled-manager');
    await page.getByRole('button', { name: 'Enable link' }).click();
    await expect(page.getByRole('button', { name: 'Disable link' })).toBeVisible();
    expect((await openAsVisitor(link.to)).status).toBe(302);

    // someone else's link (404): the page says it is not there, not that loading failed (decision 0018)
    const other = await createUser('manager');
    const theirs = await createLink(other.token, 'https://example.com/theirs');
    await page.goto(`/detail/${theirs._id}`);
    await expect(page.getByText('This link does not exist or is not yours.')).toBeVisible();
    await expect(page.getByTestId('request-failed')).toHaveCount(0);
  });

  test('an unknown short link shows the 404 page in a browser', async ({ page }) => {
    const res = await page.goto('/s/doesNotExist1');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible();
    await shot(page, 'links-redirect-404-public');
  });

  test("Links list: the admin switches to every user's links with their owners (admin)", async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const theirs = await createLink(manager.token, `https://example.com/of-${manager.id}`);
    await createLink(admin.token, 'https://example.com/admin-own');
    await loginAs(page, admin, '/links');
    await expect(rows(page).first()).toContainText('https://example.com/admin-own');
    await expect(rows(page)).toHaveCount(1);
    await page.getByLabel("Every user's links").check();
    await expect(page.getByRole('columnheader', { name: /Owner/ })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search' }).fill(manager.email);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(theirs.from);
    await shot(page, 'links-list-all-admin');
  });

  test("Links list: every user's links a page at a time, a failed page with Retry (admin)", async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const tag = `pg-${manager.id}`;
    // 12 links, created one after another: the server pages them oldest first
    for (let i = 0; i < 12; i++) await createLink(manager.token, `https://example.com/${tag}-${String(i).padStart(2, '0')}`);
    const asked: string[] = [];
    let failPage = false;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/link')) asked.push(`${url.pathname}${url.search}`);
    });
    await page.route(
      (url) => url.pathname === '/api/link/page',
      (route) =>
        failPage && new URL(route.request().url()).searchParams.get('cursor')
          ? route.fulfill({ status: 500, json: { message: 'Something went wrong' } })
          : route.continue(),
    );
    await loginAs(page, admin, '/links');
    await page.getByLabel("Every user's links").check();
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await expect(rows(page)).toHaveCount(10);
    await expect(rows(page).first()).toContainText(`${tag}-00`);
    await expect(rows(page).first()).toContainText(manager.email);
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    // the whole list of every user's links is never asked for
    expect(asked.filter((u) => u.startsWith('/api/link?') && u.includes('all=1'))).toEqual([]);
    expect(asked.some((u) => u.startsWith('/api/link/page?') && u.includes('all=1'))).toBe(true);

    failPage = true;
    await page.getByRole('button', { name: 'Next' }).click();
    const failed = page.getByTestId('request-failed');
    await expect(failed).toContainText('Could not load the links.');
    // a failed page is never an empty list, nor the page before shown as this one
    await expect(page.getByText('No Links')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(0);
    await shot(page, 'links-all-page-failed');
    failPage = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).nth(0)).toContainText(`${tag}-10`);
    await expect(rows(page).nth(0).getByRole('cell').first()).toHaveText('11');
    await expect(rows(page).nth(1)).toContainText(`${tag}-11`);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `links-all-pages-${width}`);
    }
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(rows(page)).toHaveCount(10);
    await expect(rows(page).first()).toContainText(`${tag}-00`);
    // # sorted the other way on the server: the newest first, still numbered by creation
    await page.setViewportSize({ width: 1366, height: 900 });
    // a number column sorts newest first on its first click (TanStack's order for numbers)
    await page.getByRole('button', { name: /^Number/ }).click();
    await expect(rows(page).first()).toContainText(`${tag}-11`);
    await expect(rows(page).first().getByRole('cell').first()).toHaveText('12');
    expect(asked.some((u) => u.includes('sort=date') && u.includes('dir=desc'))).toBe(true);
  });
});
