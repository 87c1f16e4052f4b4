/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { type BoardLoad, boardLoads, callAbout } from './board-loads';
import {
  addMc as addMcFor,
  apiOk,
  devUser,
  launchWithExtension,
  DEV_PASSWORD as PASSWORD,
  rowsEverywhere,
  type Server,
  serveBoard,
  teamFilters,
} from './extension-harness';
import { expect, test } from './fixtures';
import { fillPopupSignIn, loginUI } from './helpers';

/**
 * The extension on DAT One's board as public captures show it (e2e/fixtures/dat-one, built from
 * ../shared/dat-board.md's sources, not from the extension's selectors): the compact layout below
 * 1610 px and the wide one above, contacts as links, wrappers and DAT's web component, details that
 * open inside the row, and a virtual-scroll list that recycles row elements. The tests run in order
 * in one browser, against the tests' own Worker (e2e/fixtures.ts); the last ones use a fresh
 * browser for the health report (one an hour per browser).
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const ROOT = path.resolve(import.meta.dirname, '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

let server: Server;
let board: { port: number; close: () => Promise<void> };
let browser: { context: BrowserContext; extensionId: string; close: () => Promise<void> };
let extensionDir: string;
let page: Page;
const team = { managerId: '', managerToken: '', agent: { id: '', email: '', token: '' }, mcs: { swift: '', blue: '' }, agentMcs: { swift: '', blue: '' } };

async function shot(name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const ok = <T = any>(method: string, urlPath: string, body?: unknown, token?: string) => apiOk<T>(server, method, urlPath, body, token);

async function setUpTeam() {
  const tag = Date.now().toString(36);
  const manager = await devUser(server, { userType: 'manager', email: `dora-${tag}@e2e.example`, name: 'Dora Manager' });
  team.managerId = manager.id;
  team.managerToken = manager.token;
  const agent = await devUser(server, { userType: 'agent', email: `anna-${tag}@e2e.example`, name: 'Anna Agent', parentId: manager.id });
  team.agent = { id: agent.id, email: agent.email, token: agent.token };
  const addMc = (token: string, body: Record<string, unknown>) => addMcFor(server, token, body);
  team.mcs.swift = await addMc(team.managerToken, { name: 'Swift Haul', lines: [1] });
  team.mcs.blue = await addMc(team.managerToken, { name: 'Blue Line', lines: [2] });
  team.agentMcs.swift = await addMc(team.agent.token, {
    parentMc: team.mcs.swift,
    lines: [2],
    emailSubject: 'Load {origin} → {destination} on {pickupDate}',
    emailContent: 'Hello {broker},\nIs {reference} still available at {rate}?\n{userName}, {mcName}',
  });
  team.agentMcs.blue = await addMc(team.agent.token, { parentMc: team.mcs.blue, lines: [3], emailSubject: 'Truck for {origin}', emailContent: 'Hi' });
  const filter = await teamFilters(server, team.managerToken, team.agent.id);
  await filter({ name: 'Total Quality Logistics', type: 'Blocked', comment: 'Unpaid invoices since March', mcList: [team.mcs.swift] });
  await filter({ name: 'Coyote Logistics', type: 'Preferred', allMC: true });
  await filter({ name: 'Arrive Logistics', type: 'Check first', mcList: [team.mcs.blue] });
  // contacts-only: DAT's web component carries the e-mail in an attribute, the phone in href-value
  await filter({ name: 'Wayfinder Logistics LLC', type: 'Slow pay', allMC: true, onlyOnContacts: true, contacts: ['team@wayfinder.example'] });
  await filter({ name: 'ITF Logistics Group LLC', type: 'Note', allMC: true, onlyOnContacts: true, contacts: ['847-555-0139'] });
  await filter({ name: 'MX Solutions LLC', type: 'Note', allMC: true, onlyOnContacts: true, contacts: ['999-555-0100'] });
  // another trading name, the same MC number: flagged once the details show the MC
  await filter({ name: 'DGL Freight Brokers', type: 'Check first', allMC: true, mcNumber: '766673' });
}

/**
 * What the extension must flag on a load for the picked MC: by name; contacts-only by the phone or
 * e-mail the board shows (the wide row's contact, or the details once open); by MC once open.
 */
function expectedFlags(load: BoardLoad, mc: 'swift' | 'blue', layout: 'wide' | 'compact', open: boolean): string[] {
  const rowPhone = layout === 'wide' && ['a-tel', 'wrap-tel', 'ce-phone'].includes(load.contactForm) ? load.contactPhone : '';
  const rowEmail =
    layout !== 'wide'
      ? ''
      : ['wrap-mail', 'ce-email'].includes(load.contactForm)
        ? load.contact!
        : load.contactForm === 'ce-phone'
          ? (load.contactEmail ?? '')
          : '';
  const phone = rowPhone || (open ? load.contactPhone : '');
  const email = rowEmail || (open ? (load.contactEmail ?? '') : '');
  const digits = (s: string) => s.replace(/ x.*$/, '').replace(/\D/g, '');
  const flags: string[] = [];
  if (load.company.startsWith('Total Quality Logistics') && mc === 'swift') flags.push('Blocked');
  if (load.company === 'Coyote Logistics') flags.push('Preferred');
  if (load.company === 'Arrive Logistics' && mc === 'blue') flags.push('Check first');
  if (load.company === 'Wayfinder Logistics LLC' && email === 'team@wayfinder.example') flags.push('Slow pay');
  if (load.company === 'ITF Logistics Group LLC' && digits(phone) === '8475550139') flags.push('Note');
  if (load.mc === '766673' && open) flags.push('Check first');
  return flags.sort();
}

/** Every rendered row: its load id and the badges, tint and controls the extension gave it. */
const readBoard = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('cdk-virtual-scroll-viewport .cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')]
      .filter((r) => r.id !== 'table-row-similar-matches-separator')
      .map((r) => ({
        id: r.id.replace('table-row-', ''),
        badges: [...r.querySelectorAll('.fd-badge')].map((b) => b.textContent ?? '').sort(),
        blocked: r.classList.contains('fd-row-blocked'),
        inline: r.querySelectorAll('.fd-inline').length,
        more: r.querySelectorAll('.fd-more').length,
        detailsActions: r.querySelectorAll('.fd-details-actions').length,
        open: !!r.querySelector('dat-load-details'),
      })),
  );

const loadsOnBoard = () => boardLoads(page);
const layoutOf = () => page.evaluate(() => (window as any).datBoard.layout() as 'wide' | 'compact');

async function expectFlagsRight(mc: 'swift' | 'blue') {
  const loads = new Map((await loadsOnBoard()).map((l) => [l.postingId, l]));
  const layout = await layoutOf();
  await expect
    .poll(async () => {
      const rows = await readBoard();
      return rows.filter((r) => {
        const load = loads.get(r.id)!;
        const want = expectedFlags(load, mc, layout, r.open);
        return JSON.stringify(r.badges) !== JSON.stringify(want) || r.blocked !== want.includes('Blocked') || r.inline !== 1 || r.more !== 1;
      }).length;
    })
    .toBe(0);
  const rows = await readBoard();
  expect(rows.length).toBeGreaterThan(8);
  return rows;
}

/** Row and company-cell heights, and whether each of our controls is whole and on top where it sits. */
const measure = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')].map((r) => {
      const cells = r.querySelector('.row-cells')!;
      const company = r.querySelector('.cell-company-small, .cell-company')!;
      const more = r.querySelector<HTMLElement>('.fd-more');
      let whole = true;
      if (more) {
        const m = more.getBoundingClientRect();
        const c = cells.getBoundingClientRect();
        const box = company.getBoundingClientRect();
        const hit = document.elementFromPoint(m.left + m.width / 2, m.top + m.height / 2);
        const viewport = document.querySelector('cdk-virtual-scroll-viewport')!.getBoundingClientRect();
        const inView = m.top >= viewport.top && m.bottom <= viewport.bottom;
        whole = m.top >= c.top && m.bottom <= c.bottom && m.left >= box.left && m.right <= box.right && (!inView || !!hit?.closest('.fd-more'));
      }
      return {
        id: r.id,
        row: r.getBoundingClientRect().height,
        cells: cells.getBoundingClientRect().height,
        companyOverflow: company.scrollHeight - company.clientHeight,
        whole,
      };
    }),
  );

async function openPopup(): Promise<Page> {
  const popup = await browser.context.newPage();
  await popup.setViewportSize({ width: 360, height: 640 });
  await popup.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  return popup;
}

async function signIn() {
  const popup = await openPopup();
  await fillPopupSignIn(popup, team.agent.email, PASSWORD);
  await expect(popup.getByTestId('signed-in')).toContainText('Anna Agent');
  await popup.close();
}

const bar = () => page.locator('#fd-bar');
const pick = (label: string) => bar().getByLabel('Working for').selectOption({ label });
const rowEl = (postingId: string) => page.locator(`#table-row-${postingId}`);

async function openBoard(width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto('https://one.dat.com/search-loads');
  await page.evaluate(() => (window as any).datBoard.ready());
}

/** The first load matching `test` (in the list's order), scrolled into view when it is not rendered. */
async function firstLoad(test: (l: BoardLoad) => boolean): Promise<BoardLoad> {
  const rendered = new Set((await readBoard()).map((r) => r.id));
  const loads = await loadsOnBoard();
  const load = loads.find((l) => rendered.has(l.postingId) && test(l)) ?? loads.find(test);
  if (!load) throw new Error('no such load on the board');
  if (!rendered.has(load.postingId)) {
    await page.evaluate((i) => (window as any).datBoard.scrollToLoad(i), loads.indexOf(load));
    await expect(rowEl(load.postingId)).toBeVisible();
  }
  return load;
}

async function history() {
  const from = new Date(Date.now() - 86_400_000);
  const to = new Date(Date.now() + 2 * 86_400_000);
  return ok<any[]>('POST', '/api/callHistory/getHistory', { dateFrom: from.toISOString(), dateTo: to.toISOString() }, team.agent.token);
}

test.beforeAll(async ({ ownServer, ownExtension }) => {
  test.setTimeout(300_000);
  server = ownServer;
  await setUpTeam();
  extensionDir = ownExtension;
  board = await serveBoard('dat-one');
  browser = await launchWithExtension(extensionDir, board.port);
  page = await browser.context.newPage();
});

test.afterAll(async () => {
  await browser?.close();
  await board?.close();
});

test('compact layout (1366 px): flags before the company name on the right rows per MC, rows exactly as tall as without the extension', async () => {
  await openBoard(1366);
  expect(await layoutOf()).toBe('compact');
  await expect(bar()).toContainText('Sign in with the FreightDesk button');
  // signed out, the rows are DAT's alone: their heights are the baseline
  const before = await measure();
  expect(before.length).toBeGreaterThan(8);
  // the "Similar Results" separator, drawn before any health report can go: it is no load, so the
  // report (the last test) must not count it as one read blank
  await page.evaluate(() => (window as any).datBoard.scrollToIndex((window as any).datBoard.direct));
  await expect(page.locator('#table-row-similar-matches-separator[data-fd-signature]')).toBeAttached();
  await page.evaluate(() => (window as any).datBoard.scrollToIndex(0));
  await signIn();
  await pick('L2 · Swift Haul');
  const rows = await expectFlagsRight('swift');
  expect(rows.some((r) => r.badges.includes('Blocked'))).toBe(true);
  expect(rows.some((r) => r.badges.includes('Preferred'))).toBe(true);
  // the compact row shows no contact: contacts-only filters wait for the details
  expect(rows.some((r) => r.badges.includes('Slow pay'))).toBe(false);
  const after = await measure();
  const baseline = new Map(before.map((m) => [m.id, m]));
  for (const m of after) {
    const was = baseline.get(m.id);
    if (!was) continue;
    expect(m.row, m.id).toBe(was.row);
    expect(m.cells, m.id).toBe(was.cells);
    expect(m.companyOverflow, m.id).toBeLessThanOrEqual(Math.max(0, was.companyOverflow));
    expect(m.whole, `${m.id}: the control is clipped or covered`).toBe(true);
  }
  expect(new Set(after.map((m) => m.cells))).toEqual(new Set([await page.evaluate(() => (window as any).datBoard.rowHeight())]));
  await shot('dat-one-compact-1366');
  await pick('L3 · Blue Line');
  const blue = await expectFlagsRight('blue');
  expect(blue.some((r) => r.badges.includes('Blocked'))).toBe(false);
  await pick('L2 · Swift Haul');
  await expectFlagsRight('swift');
});

test('compact: Call, E-mail and + Active load say to open the load; in its details they are buttons, and the load is stored with its pick-up date and reference', async () => {
  const tql = await firstLoad((l) => l.company.startsWith('Total Quality') && !!l.referenceId && !l.similar);
  await rowEl(tql.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${tql.company}` })
    .click();
  const menu = page.getByRole('menu', { name: `FreightDesk actions for ${tql.company}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Call on line 2' })).toBeDisabled();
  await expect(menu).toContainText('Open the load to see its phone number');
  await expect(menu.getByRole('menuitem', { name: '+ Active load' })).toBeDisabled();
  await expect(menu.getByRole('menuitem', { name: 'Flag broker' })).toHaveAttribute(
    'href',
    new RegExp(`/companyFilters/create/${encodeURIComponent(tql.company)}$`),
  );
  // the menu is on the page, outside the row's box, and the row kept its height
  const menuBox = (await menu.boundingBox())!;
  const rowBox = (await rowEl(tql.postingId).boundingBox())!;
  expect(menuBox.y).toBeGreaterThanOrEqual(rowBox.y + rowBox.height - 1);
  expect(rowBox.height).toBe(await page.evaluate(() => (window as any).datBoard.rowHeight()));
  await shot('dat-one-compact-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(rowEl(tql.postingId).getByRole('button', { name: `FreightDesk actions for ${tql.company}` })).toBeFocused();

  // open the load: DAT fills its details a moment later, and the buttons come with them
  await page.evaluate((id) => (window as any).datBoard.expand(id), tql.postingId);
  const details = rowEl(tql.postingId).locator('.fd-details-actions');
  await expect(details).toHaveCount(1);
  await details.getByRole('button', { name: '+ Active load' }).click();
  await expect(details.locator('.fd-status[data-for="load"]')).toHaveText('Added to active loads');
  await details.getByRole('link', { name: 'Call on line 2' }).click();
  await expect(details.locator('.fd-dial')).toContainText(`Dial ${tql.contactPhone} on line 2`);
  await expect(details.locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  await shot('dat-one-compact-details');
  const loads = await ok<any[]>('GET', '/api/activeLoad/my', undefined, team.agent.token);
  expect(loads.map((l) => ({ brokerName: l.brokerName, origin: l.origin, dest: l.dest, loadDate: l.loadDate, reference: l.reference }))).toEqual([
    { brokerName: tql.company, origin: tql.origin.text, dest: tql.destination.text, loadDate: tql.pickUpDate, reference: tql.referenceId },
  ]);
  const calls = (await history()).filter((h) => h.kind === 'call');
  expect(calls.map((h) => ({ brokerName: h.brokerName, contact: h.contact, loadDate: h.loadDate }))).toEqual([
    { brokerName: tql.company, contact: expect.stringMatching(/513.*555.*0142/), loadDate: tql.pickUpDate },
  ]);

  // closing and opening the load again never doubles anything
  await page.evaluate((id) => (window as any).datBoard.collapse(id), tql.postingId);
  await expect(rowEl(tql.postingId).locator('.fd-details-actions')).toHaveCount(0);
  await page.evaluate((id) => (window as any).datBoard.expand(id), tql.postingId);
  await expect(rowEl(tql.postingId).locator('.fd-details-actions')).toHaveCount(1);
  await expect(rowEl(tql.postingId).locator('.fd-inline')).toHaveCount(1);
  await expect(rowEl(tql.postingId).locator('.fd-details-actions .fd-status[data-for="load"]')).toHaveText('Added to active loads');
  await page.evaluate((id) => (window as any).datBoard.collapse(id), tql.postingId);
});

test('compact: the details show the MC number and the contacts, so MC and contacts-only filters flag the load once it is open', async () => {
  const delta = await firstLoad((l) => l.mc === '766673');
  await page.evaluate((id) => (window as any).datBoard.expand(id), delta.postingId);
  await expect(rowEl(delta.postingId).locator('.fd-badge')).toHaveText(['Check first']);
  await expectFlagsRight('swift');
  await page.evaluate((id) => (window as any).datBoard.collapse(id), delta.postingId);
  await expect(rowEl(delta.postingId).locator('.fd-badge')).toHaveCount(0);
});

test('recycled rows: scrolling gives row elements other loads; within 100 ms each shows the flags of the load it shows now, and its menu acts on that load', async () => {
  const before = await readBoard();
  const elements = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.cdk-virtual-scroll-content-wrapper > .row-container')];
    (window as any).__rows = rows;
    return rows.length;
  });
  expect(elements).toBeGreaterThan(8);
  const loads = new Map((await loadsOnBoard()).map((l) => [l.postingId, l]));
  // scroll down in steps, checking each step 100 ms after DAT recycled the rows
  for (const step of [1, 2, 3]) {
    const wrong = await page.evaluate(
      async ({ step, expected }) => {
        (window as any).datBoard.scrollToLoad(step * 20);
        await new Promise((r) => setTimeout(r, 100));
        const reused = (window as any).__rows.filter((r: Element) => r.isConnected).length;
        const rows = [...document.querySelectorAll<HTMLElement>('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')].filter(
          (r) => r.id !== 'table-row-similar-matches-separator',
        );
        const bad = rows
          .map((r) => {
            const id = r.id.replace('table-row-', '');
            const badges = [...r.querySelectorAll('.fd-badge')].map((b) => b.textContent).sort();
            const want = expected[id];
            return want === undefined || JSON.stringify(badges) === JSON.stringify(want) ? null : `${id}: ${badges} for ${want}`;
          })
          .filter(Boolean);
        return { reused, bad, ids: rows.map((r) => r.id) };
      },
      { step, expected: Object.fromEntries([...loads.values()].map((l) => [l.postingId, expectedFlags(l, 'swift', 'compact', false)])) },
    );
    expect(wrong.bad).toEqual([]);
    expect(wrong.reused, 'DAT reused row elements').toBeGreaterThan(0);
  }
  const after = await readBoard();
  expect(after.map((r) => r.id)).not.toEqual(before.map((r) => r.id));
  // a row element now showing another load: its menu names that load
  const now = after.find((r) => !before.some((b) => b.id === r.id))!;
  const load = loads.get(now.id)!;
  // scrolled into view first: a scroll event arriving after the click would close the menu (as it should)
  await rowEl(now.id).scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await rowEl(now.id)
    .getByRole('button', { name: /^FreightDesk actions for / })
    .click();
  await expect(page.getByRole('menu')).toHaveAccessibleName(`FreightDesk actions for ${load.company}`);
  await expect(page.getByRole('menu').locator('.fd-menu-title')).toHaveText(load.company);
  // the menu belongs to the load under it: a small scroll moves it with its row; once DAT has
  // recycled the row for another load (or scrolled it away), it closes
  const placed = (await page.getByRole('menu').boundingBox())!;
  await page.evaluate(() => (window as any).datBoard.scrollBy(20));
  await expect.poll(async () => Math.round((await page.getByRole('menu').boundingBox())?.y ?? 0)).toBe(Math.round(placed.y - 20));
  await page.evaluate(() => (window as any).datBoard.scrollBy(2000));
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expectFlagsRight('swift');
  // a new search reuses the elements for other loads again
  await page.evaluate(() => (window as any).datBoard.search());
  await expectFlagsRight('swift');
});

test('wide layout (1920 px): contacts as links, wrappers and DAT’s component; contacts-only flags match the component’s e-mail and phone; E-mail fills the template', async () => {
  await openBoard(1920);
  expect(await layoutOf()).toBe('wide');
  const before = await page.evaluate(() => (window as any).datBoard.rowHeight());
  const rows = await expectFlagsRight('swift');
  expect(rows.some((r) => r.badges.includes('Slow pay'))).toBe(true);
  expect(rows.some((r) => r.badges.includes('Note'))).toBe(true);
  for (const m of await measure()) {
    expect(m.cells, m.id).toBe(before);
    expect(m.whole, `${m.id}: the control is clipped or covered`).toBe(true);
  }
  await shot('dat-one-wide-1920');
  // a wide row whose route cell is named like the compact one's: its pick-up cell and contact still enable the actions
  const shown = await firstLoad((l) => l.contactForm === 'a-tel' && !l.similar);
  await rowEl(shown.postingId)
    .locator('.cell-route')
    .evaluate((cell) => cell.classList.add('cell-route-small'));
  await rowEl(shown.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${shown.company}` })
    .click();
  await expect(page.getByRole('menu').getByRole('menuitem', { name: '+ Active load' })).toBeEnabled();
  await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Call on line 2' })).toBeEnabled();
  await expect(page.getByRole('menu')).not.toContainText('Open the load');
  await page.keyboard.press('Escape');
  await rowEl(shown.postingId)
    .locator('.cell-route-small')
    .evaluate((cell) => cell.classList.remove('cell-route-small'));
  // E-mail from DAT's web component: the address is in its attributes, the text in its shadow root
  const tql = await firstLoad((l) => l.company.startsWith('Total Quality') && l.contactForm === 'ce-email');
  await rowEl(tql.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${tql.company}` })
    .click();
  const email = page.getByRole('menu').getByRole('menuitem', { name: 'E-mail' });
  const href = await email.getAttribute('href');
  expect(href).toMatch(/^mailto:loads@tql\.example\?subject=/);
  const query = new URLSearchParams(href!.split('?')[1]);
  const [y, m, d] = tql.pickUpDate.split('-').map(Number);
  const date = new Date(y!, m! - 1, d!).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  expect(query.get('subject')).toBe(`Load ${tql.origin.text} → ${tql.destination.text} on ${date}`);
  expect(query.get('body')).toContain(`Hello ${tql.company},`);
  // the call is offered from the row: the wide row shows no phone for this load (an e-mail contact)
  await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Call on line 2' })).toBeDisabled();
  await email.click();
  await expect(page.getByRole('menu').locator('.fd-status[data-for="email"]')).toHaveText('E-mail logged');
  await page.keyboard.press('Escape');
  const emails = (await history()).filter((h) => h.kind === 'email');
  expect(emails.map((h) => ({ brokerName: h.brokerName, contact: h.contact, loadDate: h.loadDate }))).toEqual([
    { brokerName: tql.company, contact: 'loads@tql.example', loadDate: tql.pickUpDate },
  ]);
  // the phone from DAT's component (href-value tel:…): Call on line 2 from the row
  const itf = await firstLoad((l) => l.contactForm === 'ce-phone');
  await rowEl(itf.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${itf.company}` })
    .click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Call on line 2' }).click();
  await expect(page.getByRole('menu').locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  await page.keyboard.press('Escape');
  const calls = (await history()).filter((h) => h.kind === 'call' && h.brokerName === itf.company);
  expect(calls.map((h) => h.contact.replace(/\D/g, '').slice(-10))).toEqual([itf.contactPhone.replace(/ x.*$/, '').replace(/\D/g, '')]);
});

/** The broker's number as the dialer gets it: E.164, and RFC 3966's `;ext=` for an extension. */
const e164 = (phone: string) => {
  const ext = / x(\d+)$/.exec(phone)?.[1];
  return { number: `+1${phone.replace(/ x.*$/, '').replace(/\D/g, '')}`, ext };
};

test('wide: Call on line 2 opens the team’s dialer with the broker’s number and line 2’s caller number (tel:, Dialpad, a URL template); the log keeps both', async () => {
  const load = await firstLoad((l) => l.contactForm === 'a-tel' && !l.similar);
  const { number, ext } = e164(load.contactPhone);
  const lines = [
    { line: 1, callerNumber: '+1 312 555 0101', label: 'Main' },
    { line: 2, callerNumber: '+1 (312) 555-0102', label: 'Chicago desk' },
  ];
  const callLink = async () => {
    await rowEl(load.postingId)
      .getByRole('button', { name: `FreightDesk actions for ${load.company}` })
      .click();
    const link = page.getByRole('menu').getByRole('menuitem', { name: 'Call on line 2' });
    // both at once, from one menu: a redraw between two reads would leave the second waiting
    // a redraw that closed the menu under the read: null, and the poll opens it again
    const attrs = await link
      .evaluate((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target') }), undefined, { timeout: 2000 })
      .catch(() => ({ href: null, target: null }));
    await page.keyboard.press('Escape');
    return attrs;
  };
  const cases: { dialer: string; dialerTemplate?: string; href: string; target: string | null }[] = [
    { dialer: 'tel', href: `tel:${number}${ext ? `;ext=${ext}` : ''}`, target: null },
    { dialer: 'dialpad', href: `dialpad://${encodeURIComponent(number)}?fromNumber=%2B13125550102`, target: null },
    {
      dialer: 'template',
      dialerTemplate: 'https://pbx.example/call?to={to}&from={from}&line={line}',
      href: `https://pbx.example/call?to=${encodeURIComponent(number)}&from=%2B13125550102&line=2`,
      target: '_blank',
    },
    {
      dialer: 'template',
      dialerTemplate: 'aircall://call/{to}?from={from}',
      href: `aircall://call/${encodeURIComponent(number)}?from=%2B13125550102`,
      target: null,
    },
  ];
  for (const c of cases) {
    await ok('PUT', '/api/team/settings', { dialer: c.dialer, dialerTemplate: c.dialerTemplate ?? '', lines }, team.managerToken);
    await bar().getByRole('button', { name: 'Refresh' }).click();
    // the Refresh is done (its button is enabled again) before the menu is opened
    await expect(bar().getByRole('button', { name: 'Refresh' })).toBeEnabled();
    await expect.poll(callLink, { message: c.dialer }).toEqual({ href: c.href, target: c.target });
  }
  // with Dialpad: the call is logged on line 2 with the number it was made from
  await ok('PUT', '/api/team/settings', { dialer: 'dialpad', lines }, team.managerToken);
  await bar().getByRole('button', { name: 'Refresh' }).click();
  await expect(bar().getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await expect.poll(async () => (await callLink()).href).toContain('dialpad://');
  await rowEl(load.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${load.company}` })
    .click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem', { name: 'Call on line 2' }).click();
  await expect(menu.locator('.fd-status[data-for="call"]')).toHaveText('Call logged');
  await expect(menu.locator('.fd-dial')).toContainText(`Calling ${load.contactPhone} on line 2 · +1 312 555 0102 · Chicago desk`);
  await shot('dat-one-wide-dialpad');
  await page.keyboard.press('Escape');
  const logged = (await history()).filter((h) => h.kind === 'call' && h.brokerName === load.company);
  expect(logged.map((h) => ({ line: h.line, fromNumber: h.fromNumber, contact: h.contact }))).toEqual([
    { line: 2, fromNumber: '+13125550102', contact: `${number}${ext ? `;ext=${ext}` : ''}` },
  ]);
  // back to the system's dialer for the tests after
  await ok('PUT', '/api/team/settings', { dialer: 'tel', lines }, team.managerToken);
  await bar().getByRole('button', { name: 'Refresh' }).click();
  await expect(bar().getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await expect.poll(async () => (await callLink()).href).toMatch(/^tel:/);
});

/** Picks the mail client on the extension's options page, as a user would. */
async function pickMailClient(label: string) {
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options/options.html`);
  await options.getByLabel(label).check();
  await options.locator('#mail-form').getByRole('button', { name: 'Save' }).click();
  await expect(options.locator('#mail-result')).toHaveText('Saved');
  await options.screenshot({ path: path.join(SHOTS, 'extension-options-mail.png') });
  await options.close();
}

test('wide: E-mail opens the mail client picked in the options (mailto, Gmail, Outlook on the web) with the template filled, and logs the e-mail', async () => {
  const load = await firstLoad((l) => l.contactForm === 'wrap-mail' && !l.similar);
  const [y, m, d] = load.pickUpDate.split('-').map(Number);
  const date = new Date(y!, m! - 1, d!).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  const subject = `Load ${load.origin.text} → ${load.destination.text} on ${date}`;
  const emailLink = async () => {
    await rowEl(load.postingId)
      .getByRole('button', { name: `FreightDesk actions for ${load.company}` })
      .click();
    const link = page.getByRole('menu').getByRole('menuitem', { name: 'E-mail' });
    const attrs = { href: (await link.getAttribute('href')) ?? '', target: await link.getAttribute('target') };
    await page.keyboard.press('Escape');
    return attrs;
  };
  const fields = (href: string) => Object.fromEntries(new URLSearchParams(href.split('?')[1]));
  // the web mail clients are not reached from the test: their pages are answered here
  await browser.context.route(/^https:\/\/(mail\.google\.com|outlook\.office\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>mail</title>compose' }),
  );

  await pickMailClient('Gmail in the browser');
  await expect.poll(async () => (await emailLink()).href).toMatch(/^https:\/\/mail\.google\.com\/mail\/\?view=cm&fs=1&/);
  const gmail = await emailLink();
  expect(gmail.target).toBe('_blank');
  const g = fields(gmail.href);
  expect(g).toMatchObject({ view: 'cm', fs: '1', to: load.contact, su: subject });
  expect(g.body).toContain(`Hello ${load.company},`);
  expect(g.body).toContain('Anna Agent, Swift Haul');
  // the click opens Gmail's compose window in a tab and logs the e-mail
  await rowEl(load.postingId)
    .getByRole('button', { name: `FreightDesk actions for ${load.company}` })
    .click();
  const [tab] = await Promise.all([browser.context.waitForEvent('page'), page.getByRole('menu').getByRole('menuitem', { name: 'E-mail' }).click()]);
  await expect(page.getByRole('menu').locator('.fd-status[data-for="email"]')).toHaveText('E-mail logged');
  expect(tab.url()).toBe(gmail.href);
  await tab.close();
  await page.keyboard.press('Escape');
  const logged = (await history()).filter((h) => h.kind === 'email' && h.brokerName === load.company);
  expect(logged.map((h) => ({ contact: h.contact, line: h.line, fromNumber: h.fromNumber }))).toEqual([{ contact: load.contact, line: 2, fromNumber: '' }]);

  await pickMailClient('Outlook on the web (outlook.office.com)');
  await expect.poll(async () => (await emailLink()).href).toMatch(/^https:\/\/outlook\.office\.com\/mail\/deeplink\/compose\?to=/);
  const outlook = await emailLink();
  expect(outlook.target).toBe('_blank');
  expect(outlook.href).not.toContain('+');
  const o = fields(outlook.href);
  expect(o).toMatchObject({ to: load.contact, subject });
  expect(o.body).toContain(`Hello ${load.company},`);

  await pickMailClient('This computer’s mail app (mailto: links)');
  await expect.poll(async () => (await emailLink()).href).toMatch(/^mailto:/);
  const mailto = await emailLink();
  expect(mailto.target).toBeNull();
  expect(fields(mailto.href)).toMatchObject({ subject });
  await browser.context.unrouteAll();
});

test('wide: a teammate’s calls and e-mails show inline by the company (“Called by Ben · 14:02 · L1 · this load”, “+1”), never another team’s; rows keep their height; the manager turns them off', async () => {
  const tag = Date.now().toString(36);
  // Ben, Anna's teammate, and Omar of another team, each with an MC
  const ben = await devUser(server, { userType: 'agent', email: `ben-${tag}@e2e.example`, name: 'Ben Baker', parentId: team.managerId });
  const benToken = ben.token;
  const benMc = await addMcFor(server, benToken, { parentMc: team.mcs.swift, lines: [1] });
  const boss = await devUser(server, { userType: 'manager', email: `olga-${tag}@e2e.example`, name: 'Olga Other' });
  const omar = await devUser(server, { userType: 'agent', email: `omar-${tag}@e2e.example`, name: 'Omar Other', parentId: boss.id });
  const omarToken = omar.token;
  const otherMc = await addMcFor(server, boss.token, { name: 'Other MC', lines: [1] });
  const omarMc = await addMcFor(server, omarToken, { parentMc: otherMc, lines: [1] });

  const loads = await loadsOnBoard();
  const coyote = loads.find((l) => l.company === 'Coyote Logistics' && !l.similar)!;
  const arrive = loads.find((l) => l.company === 'Arrive Logistics')!;
  const log = (token: string, mcSettingId: string, body: Record<string, unknown>) =>
    ok('POST', '/api/callHistory/log', { clientId: `e2e-${Math.random().toString(36).slice(2)}`, mcSettingId, ...body }, token);
  await log(benToken, benMc, callAbout(coyote));
  await log(benToken, benMc, {
    kind: 'email',
    contact: 'ops@coyote.example',
    brokerName: 'COYOTE LOGISTICS, LLC',
    origin: 'Nowhere, NV',
    dest: 'Elsewhere, UT',
  });
  await log(omarToken, omarMc, { kind: 'call', contact: arrive.contactPhone, brokerName: arrive.company });

  await bar().getByRole('button', { name: 'Refresh' }).click();
  await firstLoad((l) => l.postingId === coyote.postingId);
  const marker = rowEl(coyote.postingId).locator('.fd-contacted');
  await expect(marker).toHaveText(/^Called by Ben · \d\d:\d\d · L1 · this load$/);
  // Anna's own call of the dialer test may be on this load too: it lists as hers, between Ben's
  await expect(marker).toHaveAttribute(
    'title',
    /^Called by Ben Baker · \d\d:\d\d · L1 · Swift Haul · this load\n(?:Called by you · \d\d:\d\d · L2 · Swift Haul · this load\n)?E-mailed by Ben Baker · \d\d:\d\d · L1 · Swift Haul$/,
  );
  const listed = ((await marker.getAttribute('title')) ?? '').split('\n').length;
  await expect(rowEl(coyote.postingId).locator('.fd-contacted-more')).toHaveText(`+${listed - 1}`);
  // other Coyote loads: the broker was called, not this load; another team's call never shows
  const markers = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')].map((r) => ({
      id: r.id.replace('table-row-', ''),
      text: r.querySelector('.fd-contacted')?.textContent ?? null,
    })),
  );
  const byId = new Map(loads.map((l) => [l.postingId, l]));
  for (const m of markers) {
    const l = byId.get(m.id);
    if (!l) continue;
    // Anna's own contacts of the tests before show as hers; nobody else's
    if (l.company !== 'Coyote Logistics') expect(m.text ?? 'none', l.company).toMatch(/^(none|(Called|E-mailed) by you · \d\d:\d\d · L2( · this load)?)$/);
    else if (m.id !== coyote.postingId) expect(m.text ?? '').toMatch(/^(Called|E-mailed) by Ben · \d\d:\d\d · L1$/);
  }
  const before = await page.evaluate(() => (window as any).datBoard.rowHeight());
  for (const m of await measure()) {
    expect(m.cells, m.id).toBe(before);
    expect(m.whole, `${m.id}: the control is clipped or covered`).toBe(true);
  }
  await shot('dat-one-wide-contacted');

  // the manager turns the markers off for the team
  await ok('PUT', '/api/team/settings', { dialer: 'tel', contactMarkers: false }, team.managerToken);
  await bar().getByRole('button', { name: 'Refresh' }).click();
  await expect(page.locator('.fd-contacted')).toHaveCount(0);
  await ok('PUT', '/api/team/settings', { dialer: 'tel', contactMarkers: true }, team.managerToken);
});

test('wide: 1366 and 1920 px screenshots of the decorated board, and the row heights with details open', async () => {
  const load = await firstLoad((l) => l.company === 'Coyote Logistics');
  await page.evaluate((id) => (window as any).datBoard.expand(id), load.postingId);
  await expect(rowEl(load.postingId).locator('.fd-details-actions')).toHaveCount(1);
  const heights = await page.evaluate((id) => {
    const r = document.getElementById(`table-row-${id}`)!;
    return { row: r.getBoundingClientRect().height, want: (window as any).datBoard.rowHeight() + (window as any).datBoard.detailHeight() };
  }, load.postingId);
  expect(heights.row).toBe(heights.want);
  await shot('dat-one-wide-details');
  await page.evaluate((id) => (window as any).datBoard.collapse(id), load.postingId);
});

// FIXME: with the live socket, the second click on the details' "Call on line 2" after the server
// stopped waited until the test's time ran out (the bar showed the live fallback and "The server
// cannot be reached"; the first click's "Waiting to send" was there). Not yet found whether the
// button is disabled, redrawn or the worker's answer waits; the queue itself is covered by the
// other offline tests.
test('offline on the real board: a call from the details of a row with no contact waits while the server is stopped, then goes once; nothing doubled', async () => {
  test.setTimeout(240_000);
  // the wide row shows no contact for this load: its phone is in the details
  const load = await firstLoad((l) => l.contactForm === 'none' && !l.similar);
  await page.evaluate((id) => (window as any).datBoard.expand(id), load.postingId);
  const details = rowEl(load.postingId).locator('.fd-details-actions');
  await expect(details).toHaveCount(1);
  await server.stop();
  // Call is a link to the team's dialer once the load's phone is known (here, in its details)
  await details.getByRole('link', { name: 'Call on line 2' }).click();
  await expect(details.locator('.fd-status[data-for="call"]')).toHaveText('Waiting to send');
  await details.getByRole('link', { name: 'Call on line 2' }).click();
  await expect(bar()).toContainText('1 waiting to be sent');
  await server.start();
  // no click: the extension retries by itself
  await expect(bar()).not.toContainText('waiting to be sent', { timeout: 120_000 });
  const calls = (await history()).filter((h) => h.kind === 'call' && h.brokerName === load.company);
  expect(calls.map((h) => ({ contact: h.contact.replace(/\D/g, '').slice(-10), loadDate: h.loadDate, origin: h.origin, dest: h.dest }))).toEqual([
    { contact: load.contactPhone.replace(/ x.*$/, '').replace(/\D/g, ''), loadDate: load.pickUpDate, origin: load.origin.text, dest: load.destination.text },
  ]);
  await page.evaluate((id) => (window as any).datBoard.collapse(id), load.postingId);
});

test('a board FreightDesk cannot read: the bar says flags are off, and one health report (counts only) reaches the admin’s screen', async () => {
  // a fresh browser: the health report goes at most once an hour per browser
  const other = await launchWithExtension(extensionDir, board.port);
  try {
    const popup = await other.context.newPage();
    await popup.goto(`chrome-extension://${other.extensionId}/popup/popup.html`);
    await fillPopupSignIn(popup, team.agent.email, PASSWORD);
    await expect(popup.getByTestId('signed-in')).toContainText('Anna Agent');
    const unknown = await other.context.newPage();
    await unknown.goto('https://one.dat.com/unknown.html?variant=rows');
    await expect(unknown.locator('#fd-bar [role="alert"]')).toHaveText(/FreightDesk cannot read this page, so flags are off/);
    await expect(unknown.locator('.fd-badge, .fd-inline')).toHaveCount(0);
    await unknown.screenshot({ path: path.join(SHOTS, 'dat-one-unknown-alarm.png') });
    const norows = await other.context.newPage();
    await norows.goto('https://one.dat.com/unknown.html?variant=norows');
    await expect(norows.locator('#fd-bar [role="alert"]')).toHaveText(/cannot find the loads on this page, so flags are off/, { timeout: 15_000 });
  } finally {
    await other.close();
  }
  // the report is in once the admin's summary counts it (an API call; the database is read once after)
  const admin = await devUser(server, { userType: 'admin', email: `root-${Date.now().toString(36)}@e2e.example`, name: 'Ada Admin' });
  const unreadable = async () =>
    (await ok<{ versions: { version: string; unreadableReports: number }[] }>('GET', '/api/extension/health', undefined, admin.token)).versions.find(
      (v) => v.version === VERSION,
    )?.unreadableReports ?? 0;
  await expect.poll(unreadable, { timeout: 15_000 }).toBeGreaterThan(0);
  // the stored record: counts and names of fields, nothing of a row (this agent's: the tests' own
  // Worker also holds the reports of the files before)
  const stored = (await storedReports()).filter((r) => r.user_id === team.agent.id);
  expect(stored.filter((r) => r.unreadable === 1)).toHaveLength(1);
  const alarm = stored.find((r) => r.unreadable === 1)!;
  expect(alarm).toMatchObject({ version: VERSION, layout: 'unknown', user_id: team.agent.id });
  expect(alarm.rows_seen).toBe(37);
  const fields = JSON.parse(alarm.fields);
  expect(fields.company).toEqual({ read: 0, missed: 37 });
  // the real board's report (the first page, compact): every field looked for was found on every load seen
  const healthy = stored.filter((r) => r.unreadable === 0);
  expect(healthy.map((r) => r.layout)).toEqual(['compact']);
  const counts = JSON.parse(healthy[0]!.fields) as Record<string, { read: number; missed: number }>;
  expect(counts.company!.read).toBeGreaterThan(8);
  expect(Object.entries(counts).filter(([name, c]) => !name.startsWith('signal') && c.missed > 0)).toEqual([]);
  // the layout signals it saw: every compact row had -small cells, none a pick-up cell or a contact
  const loadsSeen = counts.company!.read;
  expect(counts.signalSmallCells).toEqual({ read: loadsSeen, missed: 0 });
  expect(counts.signalPickupCell).toEqual({ read: 0, missed: loadsSeen });
  expect(counts.signalContactCell).toEqual({ read: 0, missed: loadsSeen });
  const text = JSON.stringify(stored);
  const boardText =
    fs.readFileSync(path.join(ROOT, 'e2e/fixtures/dat-one/unknown.js'), 'utf8') + fs.readFileSync(path.join(ROOT, 'e2e/fixtures/dat-one/loads.js'), 'utf8');
  for (const word of ['Logistics', 'Freight', '555-01', '.example', 'Chicago', 'IL"'])
    expect(boardText.includes(word) && text.includes(word), word).toBe(false);

  // the admin's Analytics screen shows it under the extension's version
  const web = await browser.context.newPage();
  await web.setViewportSize({ width: 1366, height: 900 });
  // signed in once the app shows who is: then the Analytics screen
  await loginUI(web, admin.email, PASSWORD, server.url);
  await web.goto(`${server.url}/analytics/`);
  const block = web.getByTestId(`ext-health-dat-${VERSION}`);
  await expect(block).toContainText(`Version ${VERSION}`);
  await expect(block).toContainText(/Could not read the page in [12] reports?/);
  // the healthy board's report read every company; the unreadable board's 37 rows read none
  await expect(
    block
      .getByRole('row', { name: /Company name/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText('37');
  await expect(block.getByTestId('layout-signals')).toContainText(`cells ending in -small ${loadsSeen} of`);
  await block.scrollIntoViewIfNeeded();
  await web.screenshot({ path: path.join(SHOTS, 'admin-extension-health.png'), fullPage: true });
  await web.setViewportSize({ width: 390, height: 844 });
  // the chart follows the new width after a ResizeObserver callback, not within the resize
  await expect.poll(() => web.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await web.screenshot({ path: path.join(SHOTS, 'admin-extension-health-390.png'), fullPage: true });
  await web.close();
});

/** The health reports as D1 holds them (the local database of the tests' own Worker). */
function storedReports() {
  return rowsEverywhere<{ version: string; layout: string; user_id: string; rows_seen: number; unreadable: number; fields: string }>(
    server,
    'select * from extension_health_reports',
  );
}
