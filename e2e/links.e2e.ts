/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, createUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('link shortener', () => {
  it('creates a link with Enter, counts clicks from another client exactly, lists it', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/links');
    await page.getByText('No Links').waitFor();
    await shot(page, 'links-empty');

    await page.getByRole('link', { name: 'Create link' }).click();
    const input = page.getByLabel('Enter Link');
    expect(await input.getAttribute('placeholder')).toBe('write your link');
    await input.fill('javascript:alert(1)');
    await input.press('Enter');
    await page.getByText('Enter a link starting with http:// or https://').waitFor();
    expect(page.url()).toMatch(/\/create$/);
    await input.fill('https://example.com/loads/board?lane=LA-NY');
    await input.press('Enter');
    await page.waitForURL(/\/detail\/[A-Za-z0-9]+$/);
    await page.getByRole('heading', { name: 'Link' }).waitFor();
    const shortLink = page.getByTestId('link-detail').getByRole('link');
    expect(await shortLink.getAttribute('target')).toBe('_blank');
    const to = (await shortLink.textContent())!;
    expect(await page.getByTestId('click-amount').textContent()).toBe('0');

    // another client opens the short link 7 times, as a browser navigation
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${baseURL()}${new URL(to).pathname}`, { redirect: 'manual', headers: { 'sec-fetch-mode': 'navigate', 'user-agent': 'Mozilla/5.0 Firefox/131' } });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/loads/board?lane=LA-NY');
    }
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('click-amount').waitFor();
        return page.getByTestId('click-amount').textContent();
      }, { timeout: 15_000 })
      .toBe('7');
    await page.getByTestId('clicks-chart').locator('svg').first().waitFor();
    await shot(page, 'links-detail');

    await page.goto('/links');
    const row = page.getByTestId('links-table').locator('tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().locator('td').first().textContent()).toBe('1');
    expect(await row.first().textContent()).toContain('https://example.com/loads/board?lane=LA-NY');
    await shot(page, 'links-list');
    await row.first().getByRole('link', { name: 'Open' }).click();
    await page.waitForURL(/\/detail\//);
    await page.close();
  });
});
