/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Page } from '@playwright/test';
import { serveBoard } from './extension-harness';
import { expect, test } from './fixtures';

/**
 * The dat-one test board itself (no extension): it must behave as DAT One's Search Loads page does
 * in the public captures, or tests of the extension against it prove nothing.
 */
type Board = {
  loads: { postingId: string; pickUpText: string; referenceId: string | null; contactForm: string; company: string }[];
  ready: () => Promise<void>;
  layout: () => 'wide' | 'compact';
  rowHeight: () => number;
  scrollToIndex: (i: number) => Promise<void>;
  scrollBy: (px: number) => Promise<void>;
  search: () => Promise<unknown>;
  expand: (id: string) => Promise<void>;
  collapse: (id: string) => Promise<void>;
  visibleIds: () => string[];
  renderedIds: () => string[];
};
declare global {
  interface Window {
    datBoard: Board;
  }
}

let board: { port: number; close: () => Promise<void> };
test.use({ ignoreHTTPSErrors: true });
test.beforeAll(async () => {
  board = await serveBoard('dat-one');
});
test.afterAll(async () => {
  await board?.close();
});

async function open(page: Page, width: number, path = '/search-loads') {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`https://127.0.0.1:${board.port}${path}`);
  await page.evaluate(() => window.datBoard?.ready());
}
const ROWS = 'cdk-virtual-scroll-viewport#table-viewport[data-test="results-table-body"] > .cdk-virtual-scroll-content-wrapper > .row-container';

test('the layout follows the window width: compact at 1366, wide at 1920', async ({ page }, testInfo) => {
  await open(page, 1366);
  expect(await page.evaluate(() => window.datBoard.layout())).toBe('compact');
  const first = page.locator(`${ROWS}[id^="table-row-"]`).first();
  // compact: route with the destination inside the origin element, company after the equipment line
  await expect(first.locator('.cell-route-small [data-test="load-origin-cell"] [data-test="load-destination-cell"]')).toHaveCount(1);
  await expect(first.locator('.cell-company-small dat-company .info-container .equipment-type')).toHaveCount(1);
  await expect(first.locator('.cell-company-small span.company-prefer-or-blocked > div.truncate.company')).toHaveCount(1);
  for (const absent of ['load-pick-up-cell', 'load-contact-cell', 'load-cs-dtp-cell', 'load-company-cell'])
    await expect(page.locator(`${ROWS} [data-test="${absent}"]`)).toHaveCount(0);
  await expect(page.locator('[data-test="results-counter"]')).toHaveText(/^\s*78\s*Results\s*$/);
  await page.screenshot({ path: testInfo.outputPath('dat-one-1366.png') });

  // the same page grows into the wide layout, with separate equipment cells from 1920 px
  await page.setViewportSize({ width: 1920, height: 900 });
  await expect.poll(() => page.evaluate(() => window.datBoard.layout())).toBe('wide');
  const wide = page.locator(`${ROWS}[id^="table-row-"]`).first();
  await expect(wide.locator('.cell-timing [data-test="load-pick-up-cell"]')).toHaveCount(1);
  await expect(wide.locator('.cell-company dat-company [data-test="load-company-cell"]')).toHaveCount(1);
  await expect(wide.locator('.cell-credit [data-test="load-cs-dtp-cell"] .days-to-pay')).toHaveCount(1);
  await expect(wide.locator('.cell-weight [data-test="load-weight-cell"]')).toHaveCount(1);
  await expect(page.locator(`${ROWS} .cell-route-small`)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('dat-one-1920.png') });

  await page.setViewportSize({ width: 1700, height: 900 });
  await expect(page.locator(`${ROWS} .cell-weight`)).toHaveCount(0);
  await expect(page.locator(`${ROWS} .cell-equipment [data-test="load-weight-cell"]`).first()).toBeAttached();
});

test('scrolling recycles the row elements: same element, another load id', async ({ page }) => {
  await open(page, 1366);
  const before = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.cdk-virtual-scroll-content-wrapper > .row-container')];
    (window as any).__rows = rows;
    return rows.map((r) => r.id);
  });
  expect(before.length).toBeGreaterThan(5);
  expect(before.length).toBeLessThan(40);
  const loads = await page.evaluate(() => window.datBoard.loads.length);
  expect(loads).toBeGreaterThanOrEqual(80);
  await page.evaluate(() => window.datBoard.scrollBy(48 * 25));
  const after = await page.evaluate(() => {
    const old = (window as any).__rows as Element[];
    return old.filter((r) => r.isConnected).map((r) => ({ id: r.id, was: old.indexOf(r) }));
  });
  const moved = after.filter((r) => r.id !== before[r.was]);
  expect(moved.length).toBeGreaterThan(0);
  for (const r of moved) expect(before).not.toContain(r.id);

  // a new search replaces every load and still reuses the elements
  const ids = await page.evaluate(async () => {
    await window.datBoard.search();
    const old = (window as any).__rows as Element[];
    return { reused: old.filter((r) => r.isConnected).length, visible: window.datBoard.visibleIds() };
  });
  expect(ids.reused).toBeGreaterThan(0);
  for (const id of ids.visible) expect(before).not.toContain(id);
});

test('collapsed rows have the fixed row height of the layout', async ({ page }) => {
  for (const [width, height] of [
    [1366, 48],
    [1920, 56],
  ] as const) {
    await open(page, width);
    expect(await page.evaluate(() => window.datBoard.rowHeight())).toBe(height);
    const heights = await page.evaluate(() =>
      [...document.querySelectorAll('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')]
        .filter((r) => r.id !== 'table-row-similar-matches-separator')
        .map((r) => r.getBoundingClientRect().height),
    );
    expect(new Set(heights)).toEqual(new Set([height]));
  }
});

test('the three contact forms are on one page, and some rows have none', async ({ page }) => {
  await open(page, 1920);
  const forms = await page.evaluate(async () => {
    const seen = { anchor: 0, wrapper: 0, component: 0, componentText: '', none: 0, ext: 0 };
    for (let i = 0; i < 24; i += 8) {
      await window.datBoard.scrollToIndex(i);
      for (const row of document.querySelectorAll('.cdk-virtual-scroll-content-wrapper > .row-container[id^="table-row-"]')) {
        const cell = row.querySelector('[data-test="load-contact-cell"]');
        if (!row.querySelector('.cell-company')) continue;
        if (!cell) seen.none++;
        else if (cell.tagName === 'A') seen.anchor++;
        else if (cell.tagName === 'DIV' && cell.querySelector('a[href^="mailto:"], a[href^="tel:"]')) seen.wrapper++;
        else if (cell.tagName === 'CONNECTED-EMAIL-CONTACT-LINK') {
          seen.component++;
          // the text is only in the open shadow root
          if (!cell.textContent?.trim() && cell.shadowRoot?.textContent) seen.componentText = cell.shadowRoot.textContent;
        }
        if (/ x\d+/.test(cell?.textContent ?? '')) seen.ext++;
      }
    }
    return seen;
  });
  expect(forms.anchor).toBeGreaterThan(0);
  expect(forms.wrapper).toBeGreaterThan(0);
  expect(forms.component).toBeGreaterThan(0);
  expect(forms.componentText).toMatch(/@|\(\d{3}\)/);
  expect(forms.none).toBeGreaterThan(0);
  expect(forms.ext).toBeGreaterThan(0);
});

test('clicking a row opens its details inside the row, with the pick-up date and the reference', async ({ page }) => {
  await open(page, 1366);
  const load = await page.evaluate(() => window.datBoard.loads.find((l, i) => i < 10 && l.referenceId)!);
  const row = page.locator(`#table-row-${load.postingId}`);
  for (let round = 0; round < 2; round++) {
    await row.locator('.row-cells .cell-route-small').click();
    await expect(row.locator('.row-cells')).toHaveClass(/selected-row/);
    const details = row.locator(':scope > div.table-row-detail.expanded-detail-row > dat-load-details');
    await expect(details).toHaveCount(1);
    // details fill in after the click
    await expect(details.locator('div.route-origin > div.date')).toHaveText(load.pickUpText);
    const labels = await details.locator('dat-equipment .data-label').allTextContents();
    const items = await details.locator('dat-equipment .data-item').allTextContents();
    expect(items[labels.indexOf('Reference ID')]).toBe(load.referenceId);
    await expect(details.locator('[data-test="company-details-container"] .company-details')).toHaveText(load.company);
    await expect(details.locator('dat-details-header [data-test="print-load-buttton"]')).toHaveCount(1);
    await row.locator('.row-cells .cell-age').click();
    await expect(row.locator('.table-row-detail')).toHaveCount(0);
    await expect(row.locator('.row-cells')).not.toHaveClass(/selected-row/);
  }
  // the API's expand is a click, and details may carry the e-mail in a web component
  const shadowMail = await page.evaluate(async () => {
    const b = window.datBoard;
    for (const l of b.loads.slice(0, 12)) {
      await b.expand(l.postingId);
      const el = document.querySelector(`#table-row-${l.postingId} dat-contacts connected-email-contact-details[recipient-email]`);
      const text = el?.shadowRoot?.textContent ?? '';
      await b.collapse(l.postingId);
      if (el) return { attr: el.getAttribute('recipient-email'), text };
    }
    return null;
  });
  expect(shadowMail?.text).toContain(shadowMail?.attr ?? '?');
});

test('unknown.html: rows with unknown cells, or no rows at all', async ({ page }) => {
  await open(page, 1366, '/unknown.html?variant=rows');
  await expect(page.locator('.row-container[id^="table-row-"]')).toHaveCount(37);
  await expect(page.locator('.row-container [data-test], .row-container .row-cells, .row-container .company')).toHaveCount(0);
  await expect(page.locator('dat-search-table [data-test="results-counter"]')).toHaveText(/37\s*Results/);
  await open(page, 1366, '/unknown.html?variant=norows');
  await expect(page.locator('[data-test="results-counter"]')).toHaveText(/37\s*Results/);
  await expect(page.locator('.row-container')).toHaveCount(0);
  await expect(page.locator('dat-results-list li')).toHaveCount(37);
});
