import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { apiOk, devUser, launchWithExtension, DEV_PASSWORD as PASSWORD, type Server, serveBoard, teamFilters } from './extension-harness';
import { expect, test } from './fixtures';
import { fillPopupSignIn, loginUI } from './helpers';

/**
 * The load-board extension in Chromium, against the real Worker: the built extension loaded in a
 * persistent profile, DAT's load search played by a local HTTPS page served as one.dat.com, and the
 * tests' own Worker (e2e/fixtures.ts), which the offline test stops and starts again on the same database.
 * The tests run in order and share the browser: each goes on from where the previous one left off,
 * as an agent's day would.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

let server: Server;
let board: { port: number; close: () => Promise<void> };
let browser: { context: BrowserContext; extensionId: string; close: () => Promise<void> };
let boardPage: Page;
const team = {
  managerToken: '',
  agent: { id: '', email: '', name: 'Ava Hakobyan' },
  mcs: { swift: '', blue: '', hidden: '' },
  agentMcs: { swift: '', blue: '', hidden: '' },
};
let password = PASSWORD;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const ok = <T = any>(method: string, urlPath: string, body?: unknown, token?: string) => apiOk<T>(server, method, urlPath, body, token);

let reader: { password: string; token: string } | null = null;
/** A web-app token of the agent, for reading back what the extension stored (one sign-in per password). */
async function agentToken() {
  if (reader?.password !== password) {
    const login = await ok<{ accessToken: string }>('POST', '/api/auth/login', { email: team.agent.email, password, clientType: 0 });
    reader = { password, token: login.accessToken };
  }
  return reader.token;
}

async function history() {
  const from = new Date();
  from.setDate(from.getDate() - 1);
  const to = new Date();
  to.setDate(to.getDate() + 1);
  const rows = await ok<any[]>('POST', '/api/callHistory/getHistory', { dateFrom: from.toISOString(), dateTo: to.toISOString() }, await agentToken());
  return rows.map((r) => ({
    kind: r.kind,
    brokerName: r.brokerName,
    contact: r.contact,
    mcName: r.mcName,
    origin: r.origin,
    dest: r.dest,
    loadDate: r.loadDate,
  }));
}

const loads = async () =>
  (await ok<any[]>('GET', '/api/activeLoad/my', undefined, await agentToken())).map((l) => ({
    brokerName: l.brokerName,
    origin: l.origin,
    dest: l.dest,
    loadDate: l.loadDate,
  }));

/** The date the fixture shows as `offset` days from today ("11/26"), as the full date the extension sends. */
const isoDay = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

async function setUpTeam() {
  const tag = Date.now().toString(36);
  const manager = await devUser(server, { userType: 'manager', email: `mona-${tag}@e2e.example`, name: 'Mona Manager' });
  team.managerToken = manager.token;
  const agent = await devUser(server, { userType: 'agent', email: `ava-${tag}@e2e.example`, name: team.agent.name, parentId: manager.id });
  team.agent.id = agent.id;
  team.agent.email = agent.email;
  const agentWeb = agent.token;
  const addMc = async (token: string, body: Record<string, unknown>) => (await ok('POST', '/api/mcSettings/add/', body, token)).mcSetting._id as string;
  team.mcs.swift = await addMc(team.managerToken, { name: 'Swift Haul', lines: [1] });
  team.mcs.blue = await addMc(team.managerToken, { name: 'Blue Line', lines: [2] });
  team.mcs.hidden = await addMc(team.managerToken, { name: 'Hidden Freight', lines: [3] });
  team.agentMcs.swift = await addMc(agentWeb, {
    parentMc: team.mcs.swift,
    lines: [2],
    emailSubject: 'Load {origin} → {destination} on {pickupDate}',
    emailContent: 'Hello {broker},\nIs {reference} still available at {rate}?\n{userName}, {mcName}',
  });
  team.agentMcs.blue = await addMc(agentWeb, { parentMc: team.mcs.blue, lines: [3], emailSubject: 'Truck for {origin}', emailContent: 'Hi' });
  team.agentMcs.hidden = await addMc(agentWeb, { parentMc: team.mcs.hidden, lines: [4] });
  await ok('POST', '/api/mcSettings/update/toggleVisibility', { settingID: team.agentMcs.hidden }, agentWeb);
  const filter = await teamFilters(server, team.managerToken, team.agent.id);
  await filter({ name: 'Total Quality Logistics', type: 'Blocked', comment: 'Unpaid invoices since March', mcList: [team.mcs.swift] });
  await filter({ name: 'Coyote Logistics', type: 'Preferred', comment: 'Pays in 7 days', allMC: true });
  await filter({
    name: 'Echo Global Logistics',
    type: 'Slow pay',
    comment: 'Only the Memphis desk',
    allMC: true,
    onlyOnContacts: true,
    contacts: ['415-555-0199'],
  });
  await filter({ name: 'Arrive Logistics', type: 'Check first', mcList: [team.mcs.blue] });
  await filter({ name: 'Nobody Freight', type: 'Note', comment: 'On the hidden MC only', mcList: [team.mcs.hidden] });
}

test.beforeAll(async ({ ownServer, ownExtension }) => {
  test.setTimeout(300_000);
  server = ownServer;
  await setUpTeam();
  board = await serveBoard();
  browser = await launchWithExtension(ownExtension, board.port);
});

test.afterAll(async () => {
  await browser?.close();
  await board?.close();
});

async function openPopup(): Promise<Page> {
  const popup = await browser.context.newPage();
  await popup.setViewportSize({ width: 360, height: 640 });
  await popup.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  return popup;
}

async function signInPopup(popup: Page, pass = password) {
  await fillPopupSignIn(popup, team.agent.email, pass);
}

const row = (id: string): Locator => boardPage.locator(`.row-container[data-row-id="${id}"]`);
const badges = (id: string) => row(id).locator('.fd-badge');
/** The row's FreightDesk menu, opened from its control before the company's name (the actions live there, not under the row). */
async function actions(id: string): Promise<Locator> {
  const control = row(id).getByRole('button', { name: /^FreightDesk actions for / });
  // the control toggles: a menu already open for this row stays open; another row's is closed
  // first, as a person would (it covers the rows under its own)
  if ((await control.getAttribute('aria-expanded')) !== 'true') {
    if (await boardPage.getByRole('menu').count()) await boardPage.keyboard.press('Escape');
    await expect(boardPage.getByRole('menu')).toHaveCount(0);
    await control.click();
  }
  const menu = boardPage.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}
const menu = () => boardPage.getByRole('menu');
const bar = () => boardPage.locator('#fd-bar');
const pick = (label: string) => bar().getByLabel('Working for').selectOption({ label });

test('sign-in from the popup: who is signed in, the subscription, and the visible MCs with their lines', async () => {
  const popup = await openPopup();
  await expect(popup.getByText('Sign in with your FreightDesk account.')).toBeVisible();
  await signInPopup(popup, 'wrong-password');
  await expect(popup.getByRole('alert')).toHaveText('Wrong email or password');
  await signInPopup(popup);
  const who = popup.getByTestId('signed-in');
  await expect(who).toContainText(team.agent.name);
  await expect(who).toContainText(team.agent.email);
  await expect(popup.getByTestId('subscription')).toContainText('Subscription active');
  const picker = popup.getByLabel('Working for');
  // Show in DAT hidden: never offered
  await expect(picker.locator('option')).toHaveText(['Pick an MC…', 'L2 · Swift Haul', 'L3 · Blue Line']);
  await expect(popup.getByTestId('synced')).toContainText('4 filters in force');
  await picker.selectOption({ label: 'L2 · Swift Haul' });
  await expect(picker).toHaveValue(team.agentMcs.swift);
  await shot(popup, 'extension-popup');
  // the extension keeps a device token of its own for the next sign-in (docs/decisions/0034-device-tokens.md)
  const stored = await browser.context.serviceWorkers()[0]!.evaluate(async () => {
    const storage = (globalThis as unknown as { chrome: { storage: { local: { get: (keys: null) => Promise<Record<string, any>> } } } }).chrome.storage;
    const all = await storage.local.get(null);
    return { devices: Object.keys(all.deviceTokens ?? {}), hasToken: typeof all.token === 'string' };
  });
  expect(stored).toEqual({ devices: [team.agent.email], hasToken: true });
  // the server holds a session of the extension's own
  const sessions = await ok<any[]>('GET', '/api/auth/sessions', undefined, await agentToken());
  expect(sessions.filter((s) => s.client === 'Load-board extension')).toHaveLength(1);
  await popup.close();
});

test("Refresh flags sends the stored list's ETag: a 304 keeps the stored list, a change on the server downloads it again", async () => {
  const sw = browser.context.serviceWorkers()[0]!;
  type Local = { filters?: { name: string; comment: string }[]; filtersEtag?: string | null; filtersSyncedAt?: number | null };
  const local = () =>
    sw.evaluate(async () => {
      const storage = (globalThis as unknown as { chrome: { storage: { local: { get: (keys: null) => Promise<Record<string, any>> } } } }).chrome.storage;
      const all = await storage.local.get(null);
      return { filters: all.filters, filtersEtag: all.filtersEtag, filtersSyncedAt: all.filtersSyncedAt } as Local;
    });
  const before = await local();
  // the popup's 4 in force on the shown MCs, and the one on the hidden MC
  expect(before.filters).toHaveLength(5);
  expect(before.filtersEtag).toMatch(/^"[0-9a-f]{32}"$/);
  // mark the stored copy: only a 304 leaves the mark in place
  await sw.evaluate(async (filters) => {
    const storage = (globalThis as unknown as { chrome: { storage: { local: { set: (v: Record<string, unknown>) => Promise<void> } } } }).chrome.storage;
    await storage.local.set({ filters: filters.map((f, i) => (i === 0 ? { ...f, comment: 'stored copy' } : f)) });
  }, before.filters!);
  const refreshed = async (since: number) => {
    const popup = await openPopup();
    await popup.getByRole('button', { name: 'Refresh flags' }).click();
    await expect.poll(async () => (await local()).filtersSyncedAt ?? 0).toBeGreaterThan(since);
    await popup.close();
    return local();
  };
  const kept = await refreshed(before.filtersSyncedAt!);
  expect(kept.filtersEtag).toBe(before.filtersEtag);
  expect(kept.filters!.map((f) => f.comment)[0]).toBe('stored copy');
  // the manager saves the team's types (names and colours as they were): the list is sent again
  const types = await ok<{ _id: string; typeName: string; color: string }[]>('GET', '/api/user/filterOverrides', undefined, team.managerToken);
  await ok(
    'PUT',
    '/api/user/update/filterOverride/',
    { newFilters: types.map((t) => ({ _id: t._id, typeName: t.typeName, color: t.color })) },
    team.managerToken,
  );
  const fresh = await refreshed(kept.filtersSyncedAt!);
  expect(fresh.filtersEtag).not.toBe(before.filtersEtag);
  expect(fresh.filters).toEqual(before.filters);
});

test('the options page shows the server address the extension was built for', async () => {
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options/options.html`);
  await expect(options.getByLabel('Server address')).toHaveValue(server.url);
  await expect(options.getByText('It never scrolls, searches or reloads the board.')).toBeVisible();
  await shot(options, 'extension-options');
  await options.close();
});

test('the Lines screen previews the e-mail template as the extension will fill it, and names an unknown placeholder', async () => {
  const web = await browser.context.newPage();
  await loginUI(web, team.agent.email, password, server.url);
  await web.goto(`${server.url}/lines`);
  const swift = web.getByTestId('mc-item').filter({ hasText: 'Swift Haul' });
  const preview = swift.getByTestId('template-preview');
  await expect(preview).toContainText('Subject: Load Chicago, IL → Dallas, TX on Nov 24, 2026');
  await expect(preview.locator('pre')).toHaveText(`Hello Total Quality Logistics,\nIs TQL-884213 still available at $2,350?\n${team.agent.name}, Swift Haul`);
  await swift.getByLabel('Email subject').fill('Load {origin} {weight}');
  await expect(preview.getByRole('alert')).toHaveText(
    'Unknown placeholder {weight} in the e-mail subject. Use {origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}',
  );
  await shot(web, 'lines-template-preview');
  // the subject was typed and not saved: leaving asks first (rule 0130), and Discard leaves
  await web.getByRole('button', { name: 'Logout' }).click();
  await web.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click();
  await expect(web.getByRole('button', { name: 'Login' })).toBeVisible();
  await web.close();
});

test('flags on the board: the right rows per picked MC, contacts-only matching, Blocked rows tinted', async () => {
  boardPage = await browser.context.newPage();
  await boardPage.goto('https://one.dat.com/search-loads');
  await expect(boardPage.locator('.row-container')).toHaveCount(6);
  await expect(bar().getByLabel('Working for')).toHaveValue(team.agentMcs.swift);
  await expect(badges('r1')).toHaveText(['Blocked']);
  await expect(badges('r1')).toHaveAttribute('title', 'Blocked: Unpaid invoices since March');
  await expect(row('r1')).toHaveClass(/fd-row-blocked/);
  await expect(badges('r2')).toHaveText(['Preferred']);
  await expect(row('r2')).not.toHaveClass(/fd-row-blocked/);
  await expect(badges('r3')).toHaveCount(0);
  // Echo's filter is for one contact: the row with (415) 555-0199 only
  await expect(badges('r4')).toHaveText(['Slow pay']);
  await expect(badges('r5')).toHaveCount(0);
  // a filter on the hidden MC never shows
  await expect(badges('r6')).toHaveCount(0);
  await expect((await actions('r1')).getByRole('menuitem', { name: 'Call on line 2' })).toBeVisible();
  await shot(boardPage, 'extension-board');

  await pick('L3 · Blue Line');
  await expect(badges('r1')).toHaveCount(0);
  await expect(row('r1')).not.toHaveClass(/fd-row-blocked/);
  await expect(badges('r3')).toHaveText(['Check first']);
  await expect(badges('r2')).toHaveText(['Preferred']);
  await expect((await actions('r1')).getByRole('menuitem', { name: 'Call on line 3' })).toBeVisible();
  await pick('L2 · Swift Haul');
  await expect(badges('r1')).toHaveText(['Blocked']);
  await expect(badges('r3')).toHaveCount(0);
});

test('rows the page adds later are decorated as they appear, and no row is decorated twice', async () => {
  // the page's own "next page": company names written another way still match
  const latency = await boardPage.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const seen = new MutationObserver(() => {
          if (document.querySelector('.row-container[data-row-id="r8"] .fd-inline')) {
            seen.disconnect();
            resolve(performance.now() - start);
          }
        });
        seen.observe(document.body, { childList: true, subtree: true });
        (document.getElementById('more') as HTMLButtonElement).click();
      }),
  );
  console.log(`rows added by the page decorated after ${latency.toFixed(1)} ms`);
  await expect(boardPage.locator('.row-container')).toHaveCount(8);
  await expect(badges('r7')).toHaveText(['Blocked']);
  await expect(badges('r8')).toHaveText(['Preferred']);
  // a new search replaces every row; MC switches redraw them; a cell changes under a row
  await boardPage.getByRole('button', { name: 'Search' }).click();
  await boardPage.getByRole('button', { name: 'Load more' }).click();
  await pick('L3 · Blue Line');
  await pick('L2 · Swift Haul');
  await boardPage.evaluate(() => {
    const cell = document.querySelector('.row-container[data-row-id="r3"] [data-test="load-company-cell"] span')!;
    cell.textContent = 'Coyote Logistics';
  });
  await expect(badges('r3')).toHaveText(['Preferred']);
  await expect(boardPage.locator('.row-container')).toHaveCount(8);
  const perRow = await boardPage
    .locator('.row-container')
    .evaluateAll((rows) =>
      rows.map((r) => [r.querySelectorAll('.fd-inline').length, r.querySelectorAll('.fd-more').length, r.querySelectorAll('.fd-badge').length]),
    );
  expect(perRow.map(([inline, control]) => [inline, control])).toEqual(Array.from({ length: 8 }, () => [1, 1]));
  expect(perRow.map(([, , n]) => n)).toEqual([1, 1, 1, 1, 0, 0, 1, 1]);
  await boardPage.evaluate(() => {
    const cell = document.querySelector('.row-container[data-row-id="r3"] [data-test="load-company-cell"] span')!;
    cell.textContent = 'Arrive Logistics';
  });
  await expect(badges('r3')).toHaveCount(0);
});

test('Call, E-mail and + Active load are each stored once, double clicks included; Flag broker opens the web app', async () => {
  const call = (await actions('r1')).getByRole('menuitem', { name: 'Call on line 2' });
  await call.dblclick();
  await expect(menu().locator('.fd-dial')).toContainText('Dial (312) 555-0142 on line 2');
  await expect(menu().locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  await call.click();

  const email = (await actions('r2')).getByRole('menuitem', { name: 'E-mail' });
  const href = decodeURIComponent((await email.getAttribute('href')) ?? '');
  const pickup = new Date(`${isoDay(3)}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  expect(href).toBe(
    `mailto:loads@coyote.example?subject=Load Atlanta, GA → Miami, FL on ${pickup}&body=Hello Coyote Logistics,\nIs  still available at $1,900?\n${team.agent.name}, Swift Haul`,
  );
  // the mail client is the operating system's: the page stays where it is
  await email.click();
  await email.click();
  await expect(menu().locator('.fd-status[data-for="email"]')).toHaveText('E-mail logged');

  const add = (await actions('r1')).getByRole('menuitem', { name: '+ Active load' });
  await add.dblclick();
  await expect(menu().locator('.fd-status[data-for="load"]')).toHaveText('Added to active loads');
  await add.click();
  await expect(menu().locator('.fd-status[data-for="load"]')).toHaveText('Added to active loads');

  expect(await history()).toEqual(
    expect.arrayContaining([
      {
        kind: 'call',
        brokerName: 'Total Quality Logistics, LLC',
        contact: '+13125550142',
        mcName: 'Swift Haul',
        origin: 'Chicago, IL',
        dest: 'Dallas, TX',
        loadDate: isoDay(2),
      },
      {
        kind: 'email',
        brokerName: 'Coyote Logistics',
        contact: 'loads@coyote.example',
        mcName: 'Swift Haul',
        origin: 'Atlanta, GA',
        dest: 'Miami, FL',
        loadDate: isoDay(3),
      },
    ]),
  );
  expect(await history()).toHaveLength(2);
  expect(await loads()).toEqual([{ brokerName: 'Total Quality Logistics, LLC', origin: 'Chicago, IL', dest: 'Dallas, TX', loadDate: isoDay(2) }]);

  const flag = (await actions('r4')).getByRole('menuitem', { name: 'Flag broker' });
  expect(await flag.getAttribute('href')).toBe(`${server.url}/companyFilters/create/Echo%20Global%20Logistics/(415)%20555-0199`);
  expect(await flag.getAttribute('target')).toBe('_blank');
  // rows without a phone or an e-mail say so instead of acting
  await expect((await actions('r6')).getByRole('menuitem', { name: 'Call on line 2' })).toBeDisabled();
  await expect((await actions('r3')).getByRole('menuitem', { name: 'E-mail' })).toBeDisabled();
  await expect((await actions('r3')).getByRole('menuitem', { name: 'E-mail' })).toHaveAttribute('title', 'No e-mail address on this load');
});

test('a row with cells named like the compact layout’s (“-small”) still offers Call and + Active load when it shows its contact and pick-up date', async () => {
  await boardPage.evaluate(() => {
    const board = (window as any).datBoard;
    board.addRows([
      {
        id: 'r9',
        age: '1m',
        pickup: board.day(2),
        origin: 'Omaha, NE',
        deadhead: '(3)',
        dest: 'Tulsa, OK',
        company: 'Wayne Freight',
        credit: '',
        phone: '(402) 555-0107',
        email: '',
        rate: '$800',
        ref: '',
      },
    ]);
    // a layout name no source promised: the row still shows its pick-up cell and its contact
    document.querySelector('.row-container[data-row-id="r9"] [data-test="load-company-cell"]')!.classList.add('cell-company-small');
  });
  const open = await actions('r9');
  await expect(open.getByRole('menuitem', { name: 'Call on line 2' })).toBeEnabled();
  await expect(open).not.toContainText('Open the load');
  await open.getByRole('menuitem', { name: '+ Active load' }).click();
  await expect(menu().locator('.fd-status[data-for="load"]')).toHaveText('Added to active loads');
  const stored = await ok<any[]>('GET', '/api/activeLoad/my', undefined, await agentToken());
  const wayne = stored.find((l) => l.brokerName === 'Wayne Freight');
  expect(wayne).toMatchObject({ origin: 'Omaha, NE', dest: 'Tulsa, OK', loadDate: isoDay(2) });
  // the rest of the day goes on without this load
  await boardPage.keyboard.press('Escape');
  await ok('POST', '/api/activeLoad/delete/', { id: wayne._id }, await agentToken());
  await boardPage.evaluate(() => document.querySelector('.row-container[data-row-id="r9"]')!.remove());
});

test('offline: actions wait in the queue while the server is stopped, then go in order once it answers; nothing lost, nothing doubled', async () => {
  test.setTimeout(240_000);
  await server.stop();
  await (await actions('r2')).getByRole('menuitem', { name: 'Call on line 2' }).click();
  await expect(menu().locator('.fd-status[data-for="call"]')).toHaveText('Waiting to send');
  await (await actions('r2')).getByRole('menuitem', { name: 'Call on line 2' }).click();
  await (await actions('r4')).getByRole('menuitem', { name: 'E-mail' }).click();
  await (await actions('r8')).getByRole('menuitem', { name: '+ Active load' }).dblclick();
  await expect(menu().locator('.fd-status[data-for="load"]')).toHaveText('Waiting to send');
  await expect(bar()).toContainText('3 waiting to be sent');
  await expect(bar()).toContainText('The server cannot be reached');
  const popup = await openPopup();
  await expect(popup.getByTestId('pending').locator('li')).toHaveText([
    'Call to Coyote Logistics (Atlanta, GA → Miami, FL)',
    'E-mail to Echo Global Logistics (Memphis, TN → Columbus, OH)',
    'Active load from Coyote Logistics Co. (Fresno, CA → Portland, OR)',
  ]);
  await popup.close();

  await server.start();
  // no click: the extension retries by itself
  await expect(bar()).not.toContainText('waiting to be sent', { timeout: 120_000 });
  await expect(bar()).not.toContainText('The server cannot be reached');
  const rows = await history();
  expect(rows.filter((r) => r.brokerName === 'Coyote Logistics' && r.kind === 'call')).toEqual([
    {
      kind: 'call',
      brokerName: 'Coyote Logistics',
      contact: '+17735550177;ext=12',
      mcName: 'Swift Haul',
      origin: 'Atlanta, GA',
      dest: 'Miami, FL',
      loadDate: isoDay(3),
    },
  ]);
  expect(rows.filter((r) => r.brokerName === 'Echo Global Logistics')).toEqual([
    {
      kind: 'email',
      brokerName: 'Echo Global Logistics',
      contact: 'ops@echo.example',
      mcName: 'Swift Haul',
      origin: 'Memphis, TN',
      dest: 'Columbus, OH',
      loadDate: isoDay(4),
    },
  ]);
  expect(rows).toHaveLength(4);
  expect((await loads()).map((l) => l.brokerName).sort()).toEqual(['Coyote Logistics Co.', 'Total Quality Logistics, LLC']);
  // the board's earlier answers changed to what happened
  await (await actions('r2')).getByRole('menuitem', { name: 'Call on line 2' }).click();
  await expect(menu().locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  expect(await history()).toHaveLength(4);
});

test('signing out of the web app leaves the extension signed in', async () => {
  const web = await browser.context.newPage();
  await loginUI(web, team.agent.email, password, server.url);
  await web.getByRole('button', { name: 'Logout' }).click();
  await expect(web.getByRole('button', { name: 'Login' })).toBeVisible();
  await web.close();

  await bar().getByRole('button', { name: 'Refresh' }).click();
  await expect(bar()).not.toContainText('Sign in again');
  await (await actions('r7')).getByRole('menuitem', { name: 'Call on line 2' }).click();
  await expect(menu().locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  expect((await history()).filter((r) => r.brokerName === 'TOTAL QUALITY LOGISTICS INC')).toHaveLength(1);
});

test('a 401 mid-session: the session signed out from the Profile screen shows "Sign in again", and the action waits for the next sign-in', async () => {
  const web = await browser.context.newPage();
  await loginUI(web, team.agent.email, password, server.url);
  await web.goto(`${server.url}/profile/`);
  const sessions = web.getByTestId('session-row');
  await expect(sessions.filter({ hasText: 'Load-board extension' })).toHaveCount(1);
  await expect(sessions.filter({ hasText: 'This session' })).toContainText('Web app');
  await shot(web, 'extension-profile-sessions');
  await sessions
    .filter({ hasText: 'Load-board extension' })
    .getByRole('button', { name: /^Sign out Load-board extension/ })
    .click();
  await expect(sessions.filter({ hasText: 'Load-board extension' })).toHaveCount(0);
  // the web app's own session goes on
  await expect(web.getByTestId('user-email')).toBeVisible();

  // the socket's close tells the board at once: calls stop, no flags or controls until the user signs in again
  await expect(bar()).toContainText('Sign in again', { timeout: 5000 });
  await expect(boardPage.locator('.fd-badge')).toHaveCount(0);
  await expect(boardPage.locator('.fd-inline')).toHaveCount(0);
  // a click that was on its way meanwhile reaches the service worker after the session ended: it waits in the queue
  const popup = await openPopup();
  const outcome = await popup.evaluate(
    async ({ mcId, loadDate }) => {
      const runtime = (globalThis as unknown as { chrome: { runtime: { sendMessage: (m: unknown) => Promise<any> } } }).chrome.runtime;
      const action = {
        kind: 'load',
        mcId,
        clientId: `fd-load-e2e-${Date.now()}`,
        brokerName: 'Arrive Logistics',
        contact: '',
        origin: 'Denver, CO',
        dest: 'Phoenix, AZ',
        loadDate,
        line: null,
        reference: 'ARR-1002',
        board: 'dat',
        at: Date.now(),
      };
      return (await runtime.sendMessage({ type: 'action', action })).outcome;
    },
    { mcId: team.agentMcs.swift, loadDate: isoDay(1) },
  );
  expect(outcome).toEqual({ status: 'signInAgain' });
  await expect(bar()).toContainText('1 waiting to be sent');
  await popup.reload();
  await expect(popup.getByRole('alert')).toHaveText('Sign in again: your session ended.');
  await expect(popup.getByText('1 action waiting: sent once you sign in.')).toBeVisible();
  await expect(popup.getByLabel('Email')).toHaveValue(team.agent.email);
  await signInPopup(popup);
  await expect(popup.getByTestId('signed-in')).toContainText(team.agent.name);
  await expect(bar()).not.toContainText('Sign in again');
  await expect(badges('r1')).toHaveText(['Blocked']);
  await expect
    .poll(async () => (await loads()).filter((l) => l.brokerName === 'Arrive Logistics'))
    .toEqual([{ brokerName: 'Arrive Logistics', origin: 'Denver, CO', dest: 'Phoenix, AZ', loadDate: isoDay(1) }]);
  await popup.close();
  await web.close();
});

test('a password change ends the web app and the extension sessions at once', async () => {
  // the web app is still signed in from the test before
  const web = await browser.context.newPage();
  await web.goto(`${server.url}/profile/`);
  await expect(web.getByTestId('user-email')).toBeVisible();
  await expect(web.getByTestId('session-row').filter({ hasText: 'Load-board extension' })).toHaveCount(1);

  await ok('POST', '/api/auth/sendPasswordHash', { email: team.agent.email });
  const mails = await ok<{ to: string; text: string }[]>('GET', '/api/dev/outbox');
  const link = /\/passwordRecovery\/([0-9a-f]+)/.exec(mails.find((m) => m.to === team.agent.email && m.text.includes('/passwordRecovery/'))!.text)![1];
  password = 'changed-pass-2';
  await ok('POST', `/api/auth/passwordHashVerify/${link}`, { newPassword: password });

  await web.goto(`${server.url}/profile/`);
  await expect(web.getByRole('button', { name: 'Login' })).toBeVisible();
  // the extension's socket closed with the session: the board says so without a Refresh
  await expect(bar()).toContainText('Sign in again', { timeout: 5000 });
  const popup = await openPopup();
  await expect(popup.getByRole('alert')).toHaveText('Sign in again: your session ended.');
  await signInPopup(popup);
  await expect(popup.getByTestId('signed-in')).toContainText(team.agent.name);
  await popup.close();
  await web.close();
});

test('Sign out in the popup ends the extension session only; the board goes quiet', async () => {
  const popup = await openPopup();
  await popup.getByRole('button', { name: 'Sign out' }).click();
  await expect(popup.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(bar()).toContainText('Sign in with the FreightDesk button');
  await expect(boardPage.locator('.fd-badge')).toHaveCount(0);
  await expect(boardPage.locator('.fd-inline')).toHaveCount(0);
  const sessions = await ok<any[]>('GET', '/api/auth/sessions', undefined, await agentToken());
  expect(sessions.filter((s) => s.client === 'Load-board extension')).toEqual([]);
  await popup.close();
});
