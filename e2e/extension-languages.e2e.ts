/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { boardLoads, callAbout } from './board-loads';
import { addMc, apiOk, DEV_PASSWORD, devUser, launchWithExtension, type Server, serveBoard, teamFilters } from './extension-harness';
import { expect, test } from './fixtures';
import { fillPopupSignIn } from './helpers';

/**
 * The extension in the signed-in user's language (docs/decisions/0025-extension-languages.md), on
 * DAT One's board fixture (e2e/fixtures/dat-one) at 1366 px, the compact layout: before sign-in the
 * popup follows the browser (English here), an agent whose language is Armenian signs in and the
 * popup, the bar, the row's menu and the inline "Called by" marker speak Armenian, the rows keep
 * DAT's height, and a change made in Profile reaches the board at the next sync.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

let server: Server;
let board: { port: number; close: () => Promise<void> };
let browser: { context: BrowserContext; extensionId: string; close: () => Promise<void> };

const ok = <T = any>(method: string, urlPath: string, body?: unknown, token?: string) => apiOk<T>(server, method, urlPath, body, token);

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

test.beforeAll(async ({ ownServer, ownExtension }) => {
  test.setTimeout(300_000);
  server = ownServer;
  board = await serveBoard('dat-one');
  browser = await launchWithExtension(ownExtension, board.port);
});

test.afterAll(async () => {
  await browser?.close();
  await board?.close();
});

test('an agent whose language is Armenian signs in in the popup: the popup, the bar, the row menu and the markers speak Armenian, rows keep their height; a change in Profile reaches the board at the next sync', async () => {
  const tag = Date.now().toString(36);
  const manager = await devUser(server, { userType: 'manager', email: `mane-${tag}@e2e.example`, name: 'Mane Manager' });
  const agent = await devUser(server, { userType: 'agent', email: `aram-${tag}@e2e.example`, name: 'Aram Agent', parentId: manager.id });
  const ben = await devUser(server, { userType: 'agent', email: `ben-${tag}@e2e.example`, name: 'Ben Baker', parentId: manager.id });
  // Aram picked Armenian in Profile (after his first sign-in, so the browser's language does not replace it)
  await ok('PUT', `/api/user/update/language/${agent.id}`, { language: 'hy' }, agent.token);
  const swift = await addMc(server, manager.token, { name: 'Swift Haul', lines: [1] });
  await addMc(server, agent.token, { parentMc: swift, lines: [2] });
  const benMc = await addMc(server, ben.token, { parentMc: swift, lines: [1] });
  const filter = await teamFilters(server, manager.token, agent.id);
  await filter({ name: 'Total Quality Logistics', type: 'Blocked', comment: 'Unpaid invoices', allMC: true });
  await filter({ name: 'Coyote Logistics', type: 'Preferred', allMC: true });

  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('https://one.dat.com/search-loads');
  await page.evaluate(() => (window as any).datBoard.ready());
  expect(await page.evaluate(() => (window as any).datBoard.layout())).toBe('compact');
  const bar = page.locator('#fd-bar');
  // before sign-in: the browser's language (English in this Chromium)
  await expect(bar).toContainText('Sign in with the FreightDesk button');
  const rowHeight = await page.evaluate(() => (window as any).datBoard.rowHeight());
  const loads = await boardLoads(page);
  // a teammate's call: the row's inline marker
  const coyote = loads.find((l) => l.company === 'Coyote Logistics' && !l.similar)!;
  await ok('POST', '/api/callHistory/log', { clientId: `e2e-${tag}`, mcSettingId: benMc, ...callAbout(coyote) }, ben.token);

  // the popup: English before sign-in, Armenian once Aram is signed in
  const popup = await browser.context.newPage();
  await popup.setViewportSize({ width: 360, height: 640 });
  await popup.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  await expect(popup.getByText('Sign in with your FreightDesk account.')).toBeVisible();
  await fillPopupSignIn(popup, agent.email, DEV_PASSWORD);
  await expect(popup.getByTestId('signed-in')).toContainText('Aram Agent');
  await expect(popup.getByRole('heading', { name: 'Աշխատում եմ MC-ով' })).toBeVisible();
  await expect(popup.getByRole('heading', { name: 'Դրոշակներ' })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Թարմացնել դրոշակները' })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Ելք' })).toBeVisible();
  await expect(popup.getByTestId('synced')).toHaveText(/^2 ֆիլտր է գործում · թարմացվել է /);
  await expect(popup.getByTestId('subscription')).toContainText(/աժանորդագր/);
  await expect(popup.getByRole('button', { name: 'Կարգավորումներ' })).toBeVisible();
  expect(await popup.evaluate(() => document.documentElement.lang)).toBe('hy');
  // nothing of the popup is English but the product's and the user's names
  expect(await popup.locator('body').textContent()).not.toMatch(/Working for|Refresh flags|Sign out|Subscription|Options/);
  expect(await popup.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await shot(popup, 'extension-hy-popup');
  await popup.close();
  // the options page too
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options/options.html`);
  await expect(options.getByRole('heading', { name: 'FreightDesk-ի կարգավորումներ' })).toBeVisible();
  await expect(options.getByLabel('Սերվերի հասցե')).toHaveValue(server.url);
  await expect(options.getByRole('radio', { name: 'Gmail-ը դիտարկիչում' })).toBeVisible();
  await options.getByRole('button', { name: 'Պահպանել' }).last().click();
  await expect(options.locator('#mail-result')).toHaveText('Պահպանված է');
  await shot(options, 'extension-hy-options');
  await options.close();

  // the board: the bar, the flags and the row's menu in Armenian
  await expect(bar.getByRole('button', { name: 'Թարմացնել' })).toBeVisible();
  await expect(bar.getByLabel('Աշխատում եմ MC-ով')).toHaveValue(/.+/);
  await expect(bar.getByRole('status')).toHaveText(/^2 ֆիլտր · /);
  await expect(bar).not.toContainText('Working for');
  const tql = loads.find((l) => l.company.startsWith('Total Quality') && !l.similar)!;
  const tqlRow = page.locator(`#table-row-${tql.postingId}`);
  if (!(await tqlRow.count())) await page.evaluate((i) => (window as any).datBoard.scrollToLoad(i), loads.indexOf(tql));
  await expect(tqlRow.locator('.fd-badge')).toHaveText(['Blocked']);
  await tqlRow.getByRole('button', { name: `FreightDesk-ի գործողություններ՝ ${tql.company}` }).click();
  const menu = page.getByRole('menu', { name: `FreightDesk-ի գործողություններ՝ ${tql.company}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Զանգ, գիծ 2' })).toBeDisabled();
  await expect(menu).toContainText('Բացեք բեռը՝ հեռախոսը տեսնելու համար');
  await expect(menu.getByRole('menuitem', { name: '+ Ակտիվ բեռ' })).toBeDisabled();
  await expect(menu.getByRole('menuitem', { name: 'Նշել բրոքերին' })).toBeVisible();
  // the menu opens outside the row, and the row keeps DAT's height
  const menuBox = (await menu.boundingBox())!;
  const rowBox = (await tqlRow.boundingBox())!;
  expect(menuBox.y).toBeGreaterThanOrEqual(rowBox.y + rowBox.height - 1);
  expect(rowBox.height).toBe(rowHeight);
  await shot(page, 'extension-hy-board-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  // Ben's call, inline by the company in Armenian; every row as tall as DAT draws it
  await page.evaluate((i) => (window as any).datBoard.scrollToLoad(i), loads.indexOf(coyote));
  const marker = page.locator(`#table-row-${coyote.postingId} .fd-contacted`);
  // (the compact row shows no pick-up date, so it never says "this load")
  await expect(marker).toHaveText(/^Զանգել է՝ Ben · \d\d:\d\d · L1$/);
  await expect(marker).toHaveAttribute('title', /^Զանգել է՝ Ben Baker · \d\d:\d\d · L1 · Swift Haul$/);
  const heights = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')].map(
      (r) => r.querySelector('.row-cells')!.getBoundingClientRect().height,
    ),
  );
  expect(heights.length).toBeGreaterThan(8);
  expect(new Set(heights)).toEqual(new Set([rowHeight]));
  await shot(page, 'extension-hy-board-marker');

  // Russian chosen in Profile: the next sync (Refresh here) brings it to the board
  await ok('PUT', `/api/user/update/language/${agent.id}`, { language: 'ru' }, agent.token);
  await bar.getByRole('button', { name: 'Թարմացնել' }).click();
  await expect(bar.getByRole('button', { name: 'Обновить' })).toBeVisible();
  await expect(marker).toHaveText(/^Звонил\(а\) Ben · \d\d:\d\d · L1$/);
  await shot(page, 'extension-ru-board');
  await page.close();
});
