/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, baseURL, createUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

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

describe('link shortener screens', () => {
  it('Links list: No Links, then numbered rows with From, To and Open (manager)', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/links');
    await page.getByRole('heading', { name: 'Links' }).waitFor();
    await page.getByText('No Links').waitFor();
    expect(await page.getByTestId('links-table').locator('th').allTextContents()).toEqual(['Number ↕', 'From ↕', 'To ↕', 'Open']);
    await shot(page, 'links-list-empty-manager');

    const first = await createLink(manager.token, 'https://example.com/loads/board?lane=LA-NY');
    const second = await createLink(manager.token, 'https://carriers.example.org/mc/123456');
    await page.reload();
    await rows(page).nth(1).waitFor();
    expect(await rows(page).count()).toBe(2);
    const cells = async (i: number) => (await rows(page).nth(i).locator('td').allTextContents()).map((t) => t.trim());
    expect(await cells(0)).toEqual(['1', first.from, first.to, 'Open']);
    expect(await cells(1)).toEqual(['2', second.from, second.to, 'Open']);
    await shot(page, 'links-list-manager');

    await rows(page).nth(1).getByRole('link', { name: 'Open link 2' }).click();
    await page.waitForURL(`**/detail/${second._id}`);
    await page.getByTestId('click-amount').waitFor();
    expect(await page.getByTestId('link-detail').textContent()).toContain(second.from);
    await page.getByRole('link', { name: '← Links' }).click();
    await page.waitForURL('**/links');
    await page.getByRole('link', { name: 'Create link' }).click();
    await page.waitForURL('**/create');
    await page.close();
  });

  it('Create: one input, Enter submits, a refused link says why, then the new detail (manager)', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/create');
    const input = page.getByLabel('Enter Link');
    await input.waitFor();
    expect(await input.getAttribute('placeholder')).toBe('write your link');
    expect(await page.locator('input:visible').count()).toBe(1);

    for (const [bad, message] of [
      ['javascript:alert(1)', 'Enter a link starting with http:// or https://'],
      ['https://user:pw@example.com/', 'Links with a user name or password are not allowed'],
    ]) {
      await input.fill(bad!);
      await input.press('Enter');
      await page.getByText(message!).waitFor();
    }
    expect(page.url()).toMatch(/\/create$/);
    expect((await apiCall('GET', '/api/link', undefined, manager.token)).body).toEqual([]);
    await shot(page, 'links-create-refused-manager');

    await input.fill('https://example.com/loads/board?lane=LA-NY');
    await input.press('Enter');
    await page.waitForURL(/\/detail\/[A-Za-z0-9]+$/);
    await page.getByRole('heading', { name: 'Link', exact: true }).waitFor();
    const [created] = (await apiCall('GET', '/api/link', undefined, manager.token)).body;
    expect(page.url()).toBe(`${baseURL()}/detail/${created._id}`);
    expect(await page.getByTestId('link-detail').textContent()).toContain('https://example.com/loads/board?lane=LA-NY');

    // the optional alias, behind its disclosure
    await page.goto('/create');
    await page.getByRole('button', { name: /Custom alias/ }).click();
    const alias = `lane-${Date.now().toString(36)}`;
    await page.getByLabel('Alias').fill(alias);
    await page.getByLabel('Enter Link').fill('https://example.com/alias-target');
    await shot(page, 'links-create-alias-manager');
    await page.getByLabel('Alias').press('Enter');
    await page.waitForURL(/\/detail\//);
    expect(await page.getByTestId('short-link').textContent()).toBe(`${new URL(created.to).origin}/s/${alias}`);
    await page.close();
  });

  it('Detail: the exact count after visits from other clients, the chart, QR, copy and disable (manager)', async () => {
    const manager = await createUser('manager');
    const link = await createLink(manager.token, 'https://example.com/loads/board?lane=LA-NY');
    const page = await newPage(browser);
    await page.context().route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Load board</h1>' }));
    await loginAs(page, manager, `/detail/${link._id}`);
    await page.getByRole('heading', { name: 'Link', exact: true }).waitFor();
    const detail = page.getByTestId('link-detail');
    expect(await detail.locator('dt').allTextContents()).toEqual(['Your Link', 'From Link', 'Click Amount', 'Creation Date']);
    const shortLink = page.getByTestId('short-link');
    expect(await shortLink.textContent()).toBe(link.to);
    expect(await shortLink.getAttribute('target')).toBe('_blank');
    expect(await page.getByTestId('click-amount').textContent()).toBe('0');
    const localDate = await page.evaluate((iso) => new Date(iso).toLocaleString(), link.date);
    expect(await detail.locator('dd').nth(3).textContent()).toBe(localDate);
    expect(
      await page
        .getByRole('img', { name: `QR code of ${link.to}` })
        .locator('svg path')
        .count(),
    ).toBeGreaterThan(0);

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
    await popup.getByRole('heading', { name: 'Load board' }).waitFor();
    await popup.close();

    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('click-amount').textContent();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('45');
    await page.getByTestId('clicks-chart').locator('.recharts-bar-rectangle').first().waitFor();
    const referrers = page.getByRole('region', { name: 'Referrers' });
    expect(await referrers.getByText('mail.example.net').count()).toBe(1);
    expect(await page.getByTestId('people-bots').textContent()).toMatch(/^40 people in the last 30 days; 5 bot visits/);
    await shot(page, 'links-detail-manager');

    await page.getByRole('button', { name: 'Disable link' }).click();
    await page.getByRole('button', { name: 'Enable link' }).waitFor();
    await page.getByText('Disabled', { exact: true }).waitFor();
    expect((await openAsVisitor(link.to)).status).toBe(410);
    await shot(page, 'links-detail-disabled-manager');
    await page.getByRole('button', { name: 'Enable link' }).click();
    await page.getByRole('button', { name: 'Disable link' }).waitFor();
    expect((await openAsVisitor(link.to)).status).toBe(302);

    // someone else's link: the page says so instead of staying blank
    const other = await createUser('manager');
    const theirs = await createLink(other.token, 'https://example.com/theirs');
    await page.goto(`/detail/${theirs._id}`);
    await page.getByText('This link could not be loaded.').waitFor();
    await page.close();
  });

  it('an unknown short link shows the 404 page in a browser', async () => {
    const page = await newPage(browser);
    const res = await page.goto('/s/doesNotExist1');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Link not found' }).waitFor();
    await shot(page, 'links-redirect-404-public');
    await page.close();
  });

  it("Links list: the admin switches to every user's links with their owners (admin)", async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const theirs = await createLink(manager.token, `https://example.com/of-${manager.id}`);
    await createLink(admin.token, 'https://example.com/admin-own');
    const page = await newPage(browser);
    await loginAs(page, admin, '/links');
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(1);
    await page.getByLabel("Every user's links").check();
    await page.getByRole('columnheader', { name: /Owner/ }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill(manager.email);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain(theirs.from);
    await shot(page, 'links-list-all-admin');
    await page.close();
  });
});
