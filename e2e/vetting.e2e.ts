/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';
import { api, apiOk, devUser, launchWithExtension, DEV_PASSWORD as PASSWORD, type Server, serveBoard, teamFilters } from './extension-harness';
import { expect, test } from './fixtures';
import { fillPopupSignIn, loginUI } from './helpers';

/**
 * Broker vetting end to end (docs/decisions/0021-broker-vetting.md): the tests' own Worker
 * (e2e/fixtures.ts) pointed at the QCMobile stand-in, the job checks the team's brokers, the manager sees the FMCSA chips on the
 * filter list and in the modal (Check now), and the extension warns on DAT One's rows whose broker
 * lost its authority or has no bond: by the filter's DOT number, and by the MC the details show.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

let server: Server;
let extensionDir: string;
let board: { port: number; close: () => Promise<void> };
let browser: { context: BrowserContext; extensionId: string; close: () => Promise<void> } | null = null;
const team = { manager: { email: '', token: '' }, agent: { id: '', email: '', token: '' }, mc: '' };
const filterIds: Record<string, string> = {};

const ok = <T = any>(method: string, urlPath: string, body?: unknown, token?: string) => apiOk<T>(server, method, urlPath, body, token);

test.beforeAll(async ({ ownServer, ownExtension, standIns }) => {
  test.setTimeout(300_000);
  // Echo Global Logistics' MC on DAT One's board (e2e/fixtures/dat-one) belongs to a broker without a bond
  await fetch(`${standIns.fmcsa.control}/carriers/2100001`, {
    method: 'PUT',
    body: JSON.stringify({ legalName: 'ECHO GLOBAL LOGISTICS INC', mcNumber: '432417', brokerAuthorityStatus: 'A', bondInsuranceOnFile: '0' }),
  });
  server = ownServer;
  extensionDir = ownExtension;
  const tag = Date.now().toString(36);
  const manager = await devUser(server, { userType: 'manager', email: `vera-${tag}@e2e.example`, name: 'Vera Manager' });
  team.manager = { email: manager.email, token: manager.token };
  const agent = await devUser(server, { userType: 'agent', email: `abe-${tag}@e2e.example`, name: 'Abe Agent', parentId: manager.id });
  team.agent = { id: agent.id, email: agent.email, token: agent.token };
  team.mc = (await ok('POST', '/api/mcSettings/add/', { name: 'Swift Haul', lines: [1] }, team.manager.token)).mcSetting._id;
  await ok('POST', '/api/mcSettings/add/', { parentMc: team.mc, lines: [2] }, team.agent.token);
  const filter = await teamFilters(server, team.manager.token, team.agent.id);
  // revoked (the stand-in's USDOT 2000002), active with a bond (2000001), and one known by MC only
  filterIds.coyote = (await filter({ name: 'Coyote Logistics', type: 'Preferred', allMC: true, dotNumber: '2000002' }))._id;
  filterIds.arrive = (await filter({ name: 'Arrive Logistics', type: 'Check first', allMC: true, dotNumber: '2000001' }))._id;
  filterIds.echo = (await filter({ name: 'Echo Freight Brokerage', type: 'Note', allMC: true, mcNumber: '432417' }))._id;
  // the 10-minute job checks the brokers just saved; the last filter comes after it
  await ok('GET', `/api/dev/scheduled?cron=${encodeURIComponent('*/10 * * * *')}`);
  filterIds.fresh = (await filter({ name: 'Unchecked Brokerage', type: 'Note', allMC: true, dotNumber: '2000003' }))._id;
});

test.afterAll(async () => {
  await browser?.close();
  await board?.close();
});

async function signInWeb(page: Page) {
  await loginUI(page, team.manager.email, PASSWORD, server.url);
}

test('the filter list shows each broker’s FMCSA status with its date; the modal has Check now for the manager', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInWeb(page);
  await page.goto(`${server.url}/companyFilters`);
  const table = page.getByTestId('filters-table');
  const rowOf = (name: string) => table.locator('tr', { hasText: name });
  await expect(rowOf('Coyote Logistics').getByTestId('vetting-chip')).toContainText('Broker authority inactive');
  await expect(rowOf('Coyote Logistics').getByTestId('vetting-chip')).toContainText('checked');
  await expect(rowOf('Arrive Logistics').getByTestId('vetting-chip')).toContainText('Authority active · bond on file');
  await expect(rowOf('Echo Freight Brokerage').getByTestId('vetting-chip')).toContainText('No bond on file');
  await expect(rowOf('Unchecked Brokerage').getByTestId('vetting-chip')).toHaveText('Not checked yet');
  await expectNoA11yViolations(page, 'filter list with FMCSA chips');
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'vetting-filters-1366.png') });

  // Check now in the modal: FMCSA asked at once, the chip says what it answered
  await rowOf('Unchecked Brokerage').getByRole('button', { name: 'Edit Unchecked Brokerage' }).click();
  const panel = page.getByTestId('vetting-panel');
  await expect(panel.getByTestId('vetting-chip')).toHaveText('Not checked yet');
  await panel.getByRole('button', { name: 'Check now' }).click();
  await expect(panel.getByTestId('vetting-chip')).toContainText('No bond on file');
  await expect(panel).toContainText('NO BOND FREIGHT LLC');
  await expectNoA11yViolations(page, 'filter modal with the FMCSA panel');
  await page.screenshot({ path: path.join(SHOTS, 'vetting-modal-1366.png') });
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/companyFilters`);
  await expect(page.getByTestId('vetting-chip').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'vetting-filters-390.png') });

  // the agent sees the chips and no Check now
  const agentCheck = await api(server, 'POST', '/api/vetting/check', { filterId: filterIds.coyote }, team.agent.token);
  expect(agentCheck.status).toBe(403);
});

test('the board warns on a row whose broker lost its authority, and on a row whose details show an MC without a bond; never more', async () => {
  board = await serveBoard('dat-one');
  browser = await launchWithExtension(extensionDir, board.port);
  const popup = await browser.context.newPage();
  await popup.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  await fillPopupSignIn(popup, team.agent.email, PASSWORD);
  await expect(popup.getByTestId('signed-in')).toContainText('Abe Agent');
  await popup.close();
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('https://one.dat.com/search-loads');
  await page.evaluate(() => (window as any).datBoard.ready());
  await page.locator('#fd-bar').getByLabel('Working for').selectOption({ label: 'L2 · Swift Haul' });

  const loads = (await page.evaluate(() => (window as any).datBoard.loads)) as { postingId: string; company: string; mc: string }[];
  const scrollTo = async (test: (l: { company: string; mc: string }) => boolean) => {
    const i = loads.findIndex(test);
    await page.evaluate((index) => (window as any).datBoard.scrollToLoad(index), i);
    const row = page.locator(`#table-row-${loads[i]!.postingId}`);
    await expect(row).toBeVisible();
    return { row, load: loads[i]! };
  };

  // Coyote: matched by name to a filter whose USDOT number's broker authority is inactive
  const coyote = await scrollTo((l) => l.company === 'Coyote Logistics');
  const warning = coyote.row.locator('.fd-vetting');
  await expect(warning).toHaveCount(1);
  await expect(warning).toHaveAttribute('data-fd-vetting', 'inactive');
  await expect(warning).toHaveAttribute('title', /^Broker authority inactive \(FMCSA, checked .+\) — Coyote Logistics$/);
  // it informs: the row keeps its type badge, is not tinted as blocked, and its actions stay
  await expect(coyote.row.locator('.fd-badge')).toHaveText(['Preferred']);
  await expect(coyote.row).not.toHaveClass(/fd-row-blocked/);
  await expect(coyote.row.getByRole('button', { name: 'FreightDesk actions for Coyote Logistics' })).toBeEnabled();

  // Arrive: active with a bond, no warning
  const arrive = await scrollTo((l) => l.company === 'Arrive Logistics');
  await expect(arrive.row.locator('.fd-badge')).toHaveText(['Check first']);
  await expect(arrive.row.locator('.fd-vetting')).toHaveCount(0);

  // Echo: the filter has another name and Echo's MC; the warning comes once the details show the MC
  const echo = await scrollTo((l) => l.mc === '432417');
  await expect(echo.row.locator('.fd-vetting')).toHaveCount(0);
  await page.evaluate((id) => (window as any).datBoard.expand(id), echo.load.postingId);
  await expect(echo.row.locator('.fd-vetting')).toHaveAttribute('data-fd-vetting', 'no_bond');
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'vetting-board-1366.png') });
  await page.evaluate((id) => (window as any).datBoard.collapse(id), echo.load.postingId);
  await expect(echo.row.locator('.fd-vetting')).toHaveCount(0);
});
