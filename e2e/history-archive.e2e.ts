/// <reference lib="dom" />
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginAs, shot, toast } from './helpers';

const DAY = 86_400_000;
const ARCHIVE_CRON = '30 3 * * *';

/** A UTC month past the 400-day hot window, its first moment, and the screen's name for it ("Aug 2025"). */
const old = new Date(Date.now() - 470 * DAY);
const MONTH = old.toISOString().slice(0, 7);
const monthStart = Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 1);
const LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(monthStart);
/** The month's days on the screen (From and To, then loaded: shown=1). */
const day = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
const lastDay = new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 0));
const MONTH_VIEW = `/callHistory?from=${day(new Date(monthStart))}&to=${day(lastDay)}&shown=1`;

const note = (page: Page) => page.getByTestId('archived-in-range');
const card = (page: Page) => page.getByTestId('archived-months');

/** `n` contacts of the user in the month (away from its edges, whatever the browser's zone). */
const contacts = (n: number, broker: string) =>
  Array.from({ length: n }, (_, i) => ({
    callDate: monthStart + 3 * DAY + i * 3_600_000 * 7,
    brokerName: `${broker} ${i % 4}`,
    kind: i % 3 ? 'call' : 'email',
    contact: i % 3 ? '+13125550142' : 'ops@broker.example',
  }));

test.describe('Contact History: archived months (decision 0171)', () => {
  test('the month is said archived, a lead exports and restores it, an agent is told whom to ask, a failed call is said', async ({ page }) => {
    test.setTimeout(180_000);
    const director = await createUser('director', { name: 'Dora Director' });
    const manager = await createUser('manager', { parentId: director.id, name: 'Mona Manager' });
    const agent = await createUser('agent', { parentId: manager.id, name: 'Arto Agent' });
    expect((await apiCall('POST', '/api/dev/history', { userId: manager.id, contacts: contacts(16, 'Mona Freight') })).status).toBe(201);
    expect((await apiCall('POST', '/api/dev/history', { userId: agent.id, contacts: contacts(8, 'Arto Brokers') })).status).toBe(201);
    // the nightly job, as its Cron Trigger runs it (the development call)
    const job = await apiCall('GET', `/api/dev/scheduled?cron=${encodeURIComponent(ARCHIVE_CRON)}`);
    expect(job.status).toBe(200);
    expect(job.body.results[ARCHIVE_CRON].rows).toBeGreaterThanOrEqual(24);

    // an agent: its own archived contacts, said; no export or restore
    await loginAs(page, agent, MONTH_VIEW);
    await expect(note(page)).toContainText(`${LABEL} is archived: 8 of your contacts are not in this list. Your manager can export or restore the month.`);
    await expect(note(page).getByRole('button')).toHaveCount(0);
    await expect(page.getByText('No contacts in this range')).toBeVisible();
    await expect(card(page)).toHaveCount(0);
    await expectNoA11yViolations(page, 'archive: agent');

    // the manager, on a laptop and on a phone
    await page.setViewportSize({ width: 1366, height: 900 });
    await loginAs(page, manager, MONTH_VIEW);
    await expect(note(page)).toContainText(`${LABEL} is archived: its 24 contacts are not in this list.`);
    await expect(page.getByTestId('history-total')).toHaveText('Total: 0');
    await expect(card(page)).toContainText(LABEL);
    await expect(card(page)).toContainText('24 contacts · archived');
    await shot(page, 'archive-manager-1366');
    await expectNoA11yViolations(page, 'archive: manager 1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(note(page)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'archive-manager-390');
    await expectNoA11yViolations(page, 'archive: manager 390');
    await page.setViewportSize({ width: 1366, height: 900 });

    // export: the month's CSV, Contact History's columns, streamed from the archive
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      note(page)
        .getByRole('button', { name: `Export CSV: ${LABEL}` })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe(`contact-history-${MONTH}.csv`);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('Agent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact,Board');
    expect(csv).toHaveLength(25);
    expect(csv.filter((line) => line.startsWith('Arto Agent,'))).toHaveLength(8);

    // restore: the contacts are back in the list, until a date
    await note(page)
      .getByRole('button', { name: `Restore: ${LABEL}` })
      .click();
    await expect(toast(page, `${LABEL} is back in Contact History until`)).toBeVisible();
    await expect(page.getByTestId('history-total')).toHaveText('Total: 24');
    await expect(note(page)).toContainText(`${LABEL} is restored from the archive until`);
    await expect(card(page)).toContainText('24 contacts · restored until');
    await expect(card(page).getByRole('button', { name: `Restore: ${LABEL}` })).toHaveCount(0);
    await shot(page, 'archive-manager-restored');
    await expectNoA11yViolations(page, 'archive: restored');

    // the director sees its manager's archive too
    await loginAs(page, director, `${MONTH_VIEW}&manager=${manager.id}`);
    await expect(card(page)).toContainText('24 contacts · restored until');
    await expectNoA11yViolations(page, 'archive: director');

    // a failed archive call is said, not shown as no months; a failed export is said too
    await page.route('**/api/callHistory/archive?**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service unavailable"}' }),
    );
    await page.route('**/api/callHistory/archive', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service unavailable"}' }),
    );
    await loginAs(page, manager, MONTH_VIEW);
    await expect(page.getByTestId('request-failed').filter({ hasText: 'Could not load the archived months.' })).toBeVisible();
    await expect(card(page)).toHaveCount(0);
    await shot(page, 'archive-list-failed');
    await expectNoA11yViolations(page, 'archive: failed list');
    await page.route('**/api/callHistory/archive/export', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Something went wrong"}' }),
    );
    await note(page)
      .getByRole('button', { name: `Export CSV: ${LABEL}` })
      .click();
    await expect(toast(page, 'Something went wrong')).toBeVisible();
  });
});
