/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import {
  addMc,
  apiOk,
  buildExtensionFor,
  devUser,
  launchWithExtension,
  DEV_PASSWORD as PASSWORD,
  rowsEverywhere,
  Server,
  serveBoard,
  teamFilters,
} from './extension-harness';
import { expect, test } from './fixtures';
import { fillPopupSignIn, loginUI } from './helpers';

/**
 * The extension on Truckstop's load search (e2e/fixtures/truckstop, built from the public evidence
 * in ../shared/truckstop-board.md, not from the extension's selectors): an AG Grid and a side panel
 * inside open shadow roots, rows without contacts or MC, a panel that fills late and is recycled,
 * virtualised rows recycled for other loads, a pinned load, and a refresh into the same elements.
 * The same browser has DAT's board too: the markers and live flags cross boards. One Worker of its
 * own; the tests run in order.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const ROOT = path.resolve(import.meta.dirname, '..');
const LIVE_MS = 5000;

let server: Server;
let dat: { port: number; close: () => Promise<void> };
let ts: { port: number; close: () => Promise<void> };
let browser: { context: BrowserContext; extensionId: string; close: () => Promise<void> };
let extensionDir: string;
let page: Page;
const team = { managerId: '', managerToken: '', anna: { id: '', email: '', token: '' }, ben: { id: '', token: '', mc: '' }, coyoteFilter: '' };

/** A load as the board's data file describes it (e2e/fixtures/truckstop/loads.js). */
interface TsLoad {
  id: string;
  accountName: string;
  brokerMC: string;
  phone: string;
  email: string;
  originCity: string;
  originState: string;
  destinationCity: string;
  destinationState: string;
  originEarlyTime: string;
  isPinnedLoad: boolean;
}

const ok = <T = any>(method: string, urlPath: string, body?: unknown, token?: string) => apiOk<T>(server, method, urlPath, body, token);

async function shot(name: string, p: Page = page) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** A load as the extension identifies it (broker, lane, pick-up day): what one load's panel showed counts for every row of it. */
const keyOf = (l: TsLoad) => JSON.stringify([l.accountName, l.originCity, l.destinationCity, new Date(l.originEarlyTime).toDateString()]);

/** The flags a Truckstop row must show: by name and alias; by MC and contacts once the load's panel was opened. */
function expectedFlags(load: TsLoad, opened: Set<string>): string[] {
  const flags: string[] = [];
  const seen = opened.has(keyOf(load));
  if (load.accountName === 'Total Quality Logistics' || load.accountName === 'TQL') flags.push('Blocked');
  if (load.accountName === 'Coyote Logistics' && team.coyoteFilter) flags.push('Preferred');
  if (load.brokerMC === '766673' && seen) flags.push('Check first');
  if (load.accountName === 'Wayfinder Logistics LLC' && seen) flags.push('Slow pay');
  return flags.sort();
}

/** Every rendered grid row (inside the grid's shadow root): its load, badges, tint and our controls. */
const readGrid = () =>
  page.evaluate(() => {
    const board = (window as any).tsBoard;
    return [...board.gridRoot.querySelectorAll('.ag-row[row-id]')].map((r: Element) => ({
      rowId: r.getAttribute('row-id')!,
      badges: [...r.querySelectorAll('.fd-badge')].map((b) => b.textContent ?? '').sort(),
      blocked: r.classList.contains('fd-row-blocked'),
      inline: r.querySelectorAll('.fd-inline').length,
      more: r.querySelectorAll('.fd-more').length,
      height: r.getBoundingClientRect().height,
      width: r.getBoundingClientRect().width,
      company: (r.querySelector('[col-id="accountName"]') as HTMLElement | null)?.getBoundingClientRect().height ?? 0,
    }));
  });

const loads = () => page.evaluate(() => (window as any).tsBoard.loads as TsLoad[]);
const rowIdOf = (l: TsLoad) => (l.isPinnedLoad ? `t-${l.id}` : l.id);
const opened = new Set<string>();

async function expectFlagsRight() {
  const byRow = new Map((await loads()).map((l) => [rowIdOf(l), l]));
  await expect
    .poll(async () =>
      (await readGrid())
        .filter((r) => {
          const want = expectedFlags(byRow.get(r.rowId)!, opened);
          return JSON.stringify(r.badges) !== JSON.stringify(want) || r.blocked !== want.includes('Blocked') || r.inline !== 1 || r.more !== 1;
        })
        .map(
          (r) =>
            `${byRow.get(r.rowId)?.accountName} ${r.rowId}: ${r.badges} for ${expectedFlags(byRow.get(r.rowId)!, opened)}, ${r.inline} inline, ${r.more} controls`,
        ),
    )
    .toEqual([]);
  return readGrid();
}

/** The side panel's broker block (two shadow roots deep): our control and badges, by the company's name. */
const panel = () => page.locator('mat-sidenav shared-broker-details');
const panelBadges = () => panel().locator('.fd-badge');

async function openPanel(load: TsLoad) {
  opened.add(keyOf(load));
  await page.evaluate((id) => (window as any).tsBoard.open(id), load.id);
  await expect(panel().locator('[data-testid="company-name"]')).toContainText(load.accountName);
}

const bar = () => page.locator('#fd-bar');

async function history() {
  const from = new Date(Date.now() - 86_400_000);
  const to = new Date(Date.now() + 2 * 86_400_000);
  return ok<any[]>('POST', '/api/callHistory/getHistory', { dateFrom: from.toISOString(), dateTo: to.toISOString() }, team.anna.token);
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // a Worker of its own, not the shared one (e2e/fixtures.ts): the admin's Analytics must show no DAT reports
  server = await Server.create();
  const tag = Date.now().toString(36);
  const manager = await devUser(server, { userType: 'manager', email: `tina-${tag}@e2e.example`, name: 'Tina Lead' });
  team.managerId = manager.id;
  team.managerToken = manager.token;
  const teamMc = await addMc(server, manager.token, { name: 'Swift Haul', lines: [2] });
  const anna = await devUser(server, { userType: 'agent', email: `anna-${tag}@e2e.example`, name: 'Anna Agent', parentId: manager.id });
  team.anna = { id: anna.id, email: anna.email, token: anna.token };
  await addMc(server, anna.token, {
    parentMc: teamMc,
    lines: [2],
    emailSubject: 'Load {origin} → {destination} on {pickupDate}',
    emailContent: 'Hello {broker},\nIs {reference} still available at {rate}?\n{userName}, {mcName}',
  });
  const ben = await devUser(server, { userType: 'agent', email: `ben-${tag}@e2e.example`, name: 'Ben Baker', parentId: manager.id });
  team.ben = { id: ben.id, token: ben.token, mc: await addMc(server, ben.token, { parentMc: teamMc, lines: [3] }) };
  const filter = await teamFilters(server, manager.token, anna.id);
  await filter({ name: 'Total Quality Logistics', type: 'Blocked', comment: 'Unpaid invoices', aliases: ['TQL'], allMC: true });
  team.coyoteFilter = (await filter({ name: 'Coyote Logistics', type: 'Preferred', allMC: true }))._id;
  // another trading name, the same MC number: flagged once a panel shows the MC
  await filter({ name: 'Delta Group Logistics', type: 'Check first', mcNumber: '766673', allMC: true });
  await filter({ name: 'Wayfinder Logistics LLC', type: 'Slow pay', onlyOnContacts: true, contacts: ['team@wayfinder.example'], allMC: true });
  extensionDir = await buildExtensionFor(server.url);
  dat = await serveBoard('dat-one');
  ts = await serveBoard('truckstop');
  browser = await launchWithExtension(extensionDir, dat.port, ts.port);
  page = await browser.context.newPage();
});

test.afterAll(async () => {
  await browser?.close();
  await dat?.close();
  await ts?.close();
  await server?.dispose();
});

test('rows are flagged by the company column (aliases too) inside the grid’s shadow root; no row taller or wider; our styles show there', async () => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('https://main.truckstop.com/app/search/loads');
  await page.evaluate(() => (window as any).tsBoard.ready());
  await expect(bar()).toContainText('Sign in with the FreightDesk button');
  const before = new Map((await readGrid()).map((r) => [r.rowId, r]));
  expect(before.size).toBeGreaterThan(10);
  const popup = await browser.context.newPage();
  await popup.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  await fillPopupSignIn(popup, team.anna.email, PASSWORD);
  await expect(popup.getByTestId('signed-in')).toContainText('Anna Agent');
  await popup.close();
  await expect(bar().getByLabel('Working for')).toHaveValue(/.+/);
  const rows = await expectFlagsRight();
  expect(rows.some((r) => r.badges.includes('Blocked'))).toBe(true);
  expect(rows.some((r) => r.badges.includes('Preferred'))).toBe(true);
  for (const r of rows) {
    const was = before.get(r.rowId);
    if (!was) continue;
    expect(r.height, r.rowId).toBe(was.height);
    expect(r.width, r.rowId).toBe(was.width);
    expect(r.company, r.rowId).toBe(was.company);
  }
  // the page's stylesheet does not reach into the shadow root: ours is there, so the badge is a coloured pill
  const look = await page.evaluate(() => {
    const root = (window as any).tsBoard.gridRoot as ShadowRoot;
    const badge = root.querySelector('.fd-badge')!;
    const control = root.querySelector('.fd-more')!;
    const row = root.querySelector('.fd-row-blocked')!;
    return {
      badge: getComputedStyle(badge).borderRadius,
      background: getComputedStyle(badge).backgroundColor,
      control: getComputedStyle(control).height,
      tint: getComputedStyle(row).boxShadow,
    };
  });
  expect(look.badge).toBe('999px');
  expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
  expect(look.control).toBe('16px');
  expect(look.tint).toContain('inset');
  // the row's own click opens the panel; ours does not
  const tql = (await loads()).find((l) => l.accountName === 'TQL' && !l.isPinnedLoad)!;
  await page.evaluate((id) => (window as any).tsBoard.scrollToLoad((window as any).tsBoard.loads.findIndex((l: TsLoad) => l.id === id)), tql.id);
  await page.locator(`.ag-row[row-id="${tql.id}"] .fd-more`).click();
  const menu = page.getByRole('menu', { name: 'FreightDesk actions for TQL' });
  await expect(menu).toBeVisible();
  expect(await page.evaluate(() => (window as any).tsBoard.openId())).toBeNull();
  // the row shows no phone or e-mail: open the load for them; its pick-up date is in the row
  await expect(menu.getByRole('menuitem', { name: 'Call on line 2' })).toBeDisabled();
  await expect(menu).toContainText('Open the load to see its phone number');
  await expect(menu.getByRole('menuitem', { name: '+ Active load' })).toBeEnabled();
  await shot('truckstop-rows-1366');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
});

test('the panel: its control gives Call, E-mail, + Active load and Flag broker; the MC flags exactly, and the row of the same load too', async () => {
  const delta = (await loads()).find((l) => l.brokerMC === '766673' && !l.isPinnedLoad)!;
  /** The panel's box and its company line, with our group in it and without (display: none). */
  const panelBoxes = () =>
    page.evaluate(() => {
      const host = document.querySelector('mat-sidenav')!;
      const root = (window as any).tsBoard.brokerRoot as ShadowRoot;
      const name = root.querySelector('[data-testid="company-name"]') as HTMLElement;
      const ours = root.querySelector('.fd-inline') as HTMLElement;
      const box = () => ({ width: host.getBoundingClientRect().width, height: host.scrollHeight, line: name.getBoundingClientRect().height });
      const withOurs = box();
      ours.style.display = 'none';
      const without = box();
      ours.style.display = '';
      return { withOurs, without };
    });
  await openPanel(delta);
  await expect(panelBadges()).toHaveText(['Check first']);
  const boxes = await panelBoxes();
  expect(boxes.withOurs).toEqual(boxes.without);
  // the row of the same load is flagged by the MC now
  await expectFlagsRight();
  await panel()
    .getByRole('button', { name: `FreightDesk actions for ${delta.accountName}` })
    .click();
  const menu = page.getByRole('menu', { name: `FreightDesk actions for ${delta.accountName}` });
  const call = menu.getByRole('menuitem', { name: 'Call on line 2' });
  await expect(call).toHaveAttribute('href', `tel:+1${delta.phone.replace(/\D/g, '')}`);
  const email = menu.getByRole('menuitem', { name: 'E-mail' });
  const href = (await email.getAttribute('href'))!;
  expect(href).toMatch(new RegExp(`^mailto:${delta.email.replace('.', '\\.')}\\?subject=`));
  const query = new URLSearchParams(href.split('?')[1]);
  expect(query.get('subject')).toBe(
    `Load ${delta.originCity}, ${delta.originState} → ${delta.destinationCity}, ${delta.destinationState} on ${new Date(delta.originEarlyTime).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}`,
  );
  expect(query.get('body')).toMatch(/^Hello DGL Freight Brokers,\nIs \d+ still available at \$[\d,]+\?/);
  await expect(menu.getByRole('menuitem', { name: 'Flag broker' })).toHaveAttribute('href', /\/companyFilters\/create\/DGL%20Freight%20Brokers\//);
  await shot('truckstop-panel-menu');
  await call.click();
  await expect(menu.locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  await email.click();
  await expect(menu.locator('.fd-status[data-for="email"]')).toHaveText('E-mail logged');
  await menu.getByRole('menuitem', { name: '+ Active load' }).click();
  await expect(menu.locator('.fd-status[data-for="load"]')).toHaveText('Added to active loads');
  await page.keyboard.press('Escape');
  const pickup = new Date(delta.originEarlyTime);
  const day = `${pickup.getFullYear()}-${String(pickup.getMonth() + 1).padStart(2, '0')}-${String(pickup.getDate()).padStart(2, '0')}`;
  const logged = (await history()).map((h) => ({ kind: h.kind, brokerName: h.brokerName, board: h.board, loadDate: h.loadDate, origin: h.origin }));
  expect(logged.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
    { kind: 'call', brokerName: 'DGL Freight Brokers', board: 'truckstop', loadDate: day, origin: `${delta.originCity}, ${delta.originState}` },
    { kind: 'email', brokerName: 'DGL Freight Brokers', board: 'truckstop', loadDate: day, origin: `${delta.originCity}, ${delta.originState}` },
  ]);
  const active = await ok<any[]>('GET', '/api/activeLoad/my', undefined, team.anna.token);
  expect(active.map((l) => ({ brokerName: l.brokerName, board: l.board, loadDate: l.loadDate, reference: l.reference }))).toEqual([
    { brokerName: 'DGL Freight Brokers', board: 'truckstop', loadDate: day, reference: expect.stringMatching(/^\d+$/) },
  ]);
});

test('a recycled panel never keeps the last broker’s badge or actions; contacts-only filters match the panel’s e-mail', async () => {
  const all = await loads();
  const tql = all.find((l) => l.accountName === 'Total Quality Logistics' && !l.isPinnedLoad)!;
  const coyote = all.find((l) => l.accountName === 'Coyote Logistics' && !l.isPinnedLoad)!;
  const wayfinder = all.find((l) => l.accountName === 'Wayfinder Logistics LLC' && !l.isPinnedLoad)!;
  await openPanel(tql);
  await expect(panelBadges()).toHaveText(['Blocked']);
  // the next load in the same panel elements: within 100 ms of its fill, its own flags and menu
  await page.evaluate((id) => (window as any).tsBoard.open(id), coyote.id);
  opened.add(keyOf(coyote));
  await expect(panel().locator('[data-testid="company-name"]')).toContainText('Coyote Logistics');
  await expect(panelBadges()).toHaveText(['Preferred'], { timeout: 1000 });
  await expect(panel().locator('.fd-inline')).toHaveCount(1);
  await panel().getByRole('button', { name: 'FreightDesk actions for Coyote Logistics' }).click();
  await expect(page.getByRole('menu').locator('.fd-menu-title')).toHaveText('Coyote Logistics');
  await page.keyboard.press('Escape');
  await openPanel(wayfinder);
  await expect(panelBadges()).toHaveText(['Slow pay']);
  await shot('truckstop-panel');
  await expectFlagsRight();
});

test('recycled rows, the pinned load and a refresh: each row element shows the flags of the load it shows now, within 100 ms', async () => {
  const all = await loads();
  const expected = Object.fromEntries(all.map((l) => [rowIdOf(l), expectedFlags(l, opened)]));
  const elements = await page.evaluate(() => {
    (window as any).__rows = [...(window as any).tsBoard.gridRoot.querySelectorAll('.ag-row[row-id]')];
    return (window as any).__rows.length;
  });
  expect(elements).toBeGreaterThan(10);
  for (const step of [1, 2, 3]) {
    const result = await page.evaluate(
      async ({ step, expected }) => {
        const board = (window as any).tsBoard;
        board.scrollToLoad(step * 15);
        await new Promise((r) => setTimeout(r, 100));
        const rows = [...board.gridRoot.querySelectorAll('.ag-row[row-id]')] as Element[];
        const reused = (window as any).__rows.filter((r: Element) => r.isConnected && rows.includes(r)).length;
        const bad = rows
          .map((r) => {
            const badges = [...r.querySelectorAll('.fd-badge')].map((b) => b.textContent).sort();
            const want = expected[r.getAttribute('row-id')!];
            return JSON.stringify(badges) === JSON.stringify(want) ? null : `${r.getAttribute('row-id')}: ${badges} for ${want}`;
          })
          .filter(Boolean);
        return { bad, reused, pinned: !!board.gridRoot.querySelector('.ag-row-pinned .fd-inline') };
      },
      { step, expected },
    );
    expect(result.bad).toEqual([]);
    expect(result.reused, 'the grid reused row elements').toBeGreaterThan(0);
    expect(result.pinned, 'the pinned load is decorated').toBe(true);
  }
  // the grid's refresh (about every 30 s): new loads into the same elements, and back
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => (window as any).tsBoard.refresh());
    await expectFlagsRight();
  }
});

test('markers and live flags cross boards: Ben’s call from DAT shows on Anna’s Truckstop rows within 5 s; a disabled filter drops its badge within 5 s', async () => {
  const coyote = (await loads()).find((l) => l.accountName === 'Coyote Logistics' && !l.isPinnedLoad)!;
  await page.evaluate((id) => (window as any).tsBoard.scrollToLoad((window as any).tsBoard.loads.findIndex((l: TsLoad) => l.id === id)), coyote.id);
  const row = page.locator(`.ag-row[row-id="${coyote.id}"]`);
  await expect(row.locator('.fd-badge')).toHaveText(['Preferred']);
  const before = (await row.boundingBox())!;
  await ok(
    'POST',
    '/api/callHistory/log',
    { clientId: `ben-${Date.now()}`, mcSettingId: team.ben.mc, kind: 'call', contact: '(773) 555-0199', brokerName: 'COYOTE LOGISTICS, LLC', board: 'dat' },
    team.ben.token,
  );
  const marker = row.locator('.fd-contacted');
  await expect(marker).toHaveText(/^Called by Ben · \d\d:\d\d · L3$/, { timeout: LIVE_MS });
  await expect(marker).toHaveAttribute('title', /^Called by Ben Baker · \d\d:\d\d · L3 · Swift Haul · on DAT$/);
  expect((await row.boundingBox())!.height).toBe(before.height);
  await shot('truckstop-marker');
  await ok('PUT', '/api/broker/update/isactive', { filterId: team.coyoteFilter }, team.managerToken);
  team.coyoteFilter = '';
  await expect(row.locator('.fd-badge')).toHaveCount(0, { timeout: LIVE_MS });
  await expectFlagsRight();
  // the web app names the board of each contact and load, and filters by it
  const web = await browser.context.newPage();
  await loginUI(web, team.anna.email, PASSWORD, server.url);
  await web.goto(`${server.url}/activeLoads`);
  await expect(web.getByTestId('load-board')).toHaveText(['From Truckstop']);
  await web.getByLabel('Board').selectOption({ label: 'DAT' });
  await expect(web.getByTestId('load-board')).toHaveCount(0);
  await web.close();
});

test('a Truckstop page it cannot read raises its own alarm, and the admin sees Truckstop’s fields apart from DAT’s', async () => {
  // a fresh browser: a report goes at most once an hour per browser and board
  const other = await launchWithExtension(extensionDir, dat.port, ts.port);
  try {
    const popup = await other.context.newPage();
    await popup.goto(`chrome-extension://${other.extensionId}/popup/popup.html`);
    await fillPopupSignIn(popup, team.anna.email, PASSWORD);
    await expect(popup.getByTestId('signed-in')).toContainText('Anna Agent');
    const renamed = await other.context.newPage();
    await renamed.goto('https://main.truckstop.com/app/search/loads?variant=renamed');
    await expect(renamed.locator('#fd-bar [role="alert"]')).toHaveText(/FreightDesk cannot read this page, so flags are off/, { timeout: 15_000 });
    await expect(renamed.locator('.fd-badge, .fd-inline')).toHaveCount(0);
    await shot('truckstop-unreadable', renamed);
    const stored = await expect
      .poll(async () => (await storedReports()).filter((r) => r.board === 'truckstop' && r.unreadable === 1).length, { timeout: 15_000 })
      .toBe(1)
      .then(() => storedReports());
    const alarm = stored.find((r) => r.board === 'truckstop' && r.unreadable === 1)!;
    expect(JSON.parse(alarm.fields).company).toEqual({ read: 0, missed: alarm.rows_seen });
    // the first browser's Truckstop report (healthy): every row's company read
    const healthy = stored.find((r) => r.board === 'truckstop' && r.unreadable === 0);
    expect(healthy, 'the healthy board reported').toBeTruthy();
    const fields = JSON.parse(healthy!.fields);
    expect(fields.company.read).toBeGreaterThan(0);
    expect(fields.company.missed).toBe(0);

    // the admin's Analytics shows Truckstop's reports apart from DAT's (a browser of its own)
    const admin = await devUser(server, { userType: 'admin', email: `root-${Date.now().toString(36)}@e2e.example`, name: 'Ada Admin' });
    const web = await other.context.newPage();
    await web.setViewportSize({ width: 1366, height: 900 });
    await loginUI(web, admin.email, PASSWORD, server.url);
    await web.goto(`${server.url}/analytics/`);
    const truckstop = web.getByTestId('ext-health-board-truckstop');
    await expect(truckstop).toContainText('Truckstop');
    await expect(truckstop).toContainText(/Could not read the page in 1 report/);
    await expect(web.getByTestId('ext-health-board-dat')).toContainText('No reports from DAT yet.');
    await truckstop.scrollIntoViewIfNeeded();
    await web.screenshot({ path: path.join(SHOTS, 'admin-extension-health-boards.png'), fullPage: true });
  } finally {
    await other.close();
  }
});

/** The health reports as D1 holds them (the local database of this file's Worker). */
function storedReports() {
  return rowsEverywhere<{ board: string; version: string; layout: string; rows_seen: number; unreadable: number; fields: string }>(
    server,
    'select * from extension_health_reports',
  );
}
