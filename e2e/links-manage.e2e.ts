/// <reference lib="dom" />
import fs from 'node:fs';
import { expect, test } from './fixtures';
import { apiCall, baseURL, createUser, loginAs, shot, toast } from './helpers';

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A visit from another client: a navigation, not following the 302. */
async function visit(pathOrUrl: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${baseURL()}${new URL(pathOrUrl, baseURL()).pathname}`, {
    method,
    redirect: 'manual',
    headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html', 'user-agent': CHROME_WIN, ...headers },
  });
  await res.arrayBuffer();
  return res;
}

test.describe('managing short links', () => {
  test('edit, limits, breakdowns, export and delete on the detail page (manager)', async ({ page }) => {
    const manager = await createUser('manager');
    const alias = `lane-${Date.now().toString(36)}`;
    const made = await apiCall('POST', '/api/link/generate', { from: 'https://example.com/old-board', alias }, manager.token);
    expect(made.status).toBe(200);
    const link = made.body;
    // people on two browsers, one of them twice, a HEAD check and a messaging app's preview
    for (const [headers, method] of [
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.1' }],
      [{ 'user-agent': CHROME_WIN, 'cf-connecting-ip': '203.0.113.1' }],
      [{ 'user-agent': SAFARI_IPHONE, 'cf-connecting-ip': '203.0.113.2' }],
      [{}, 'HEAD'],
      [{ 'user-agent': 'WhatsApp/2.23.20.0' }],
    ] as [Record<string, string>, string?][])
      expect((await visit(link.to, headers, method)).status).toBe(302);

    await loginAs(page, manager, `/detail/${link._id}`);
    await expect(page.getByTestId('click-amount')).toHaveText('5', { timeout: 20_000 });
    await expect(page.getByTestId('people-bots')).toContainText('3 people in the last 30 days; 2 bot visits');
    await expect(page.getByRole('region', { name: 'Browsers' })).toContainText(/Chrome\s*2/);
    await expect(page.getByRole('region', { name: 'Browsers' })).toContainText(/Safari\s*1/);
    await expect(page.getByRole('region', { name: 'Operating systems' })).toContainText(/Windows\s*2/);
    await expect(page.getByRole('region', { name: 'Operating systems' })).toContainText(/iOS\s*1/);
    await expect(page.getByTestId('clicks-chart')).toContainText('Unique visitors');
    await expect(page.getByTestId('link-status')).toHaveText('Active');
    await shot(page, 'links-detail-breakdowns-manager');

    // the whole list of clicks per day as a file
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`link-${alias}-clicks.csv`);
    const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe('Day,People,Bots,Unique visitors');
    expect(csv).toContain(`${new Date().toISOString().slice(0, 10)},3,2,2`);

    // edit: a refused target says why and changes nothing
    const settings = page.getByRole('form', { name: 'Link settings' });
    await settings.getByLabel('Target').fill('javascript:alert(1)');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect(settings.getByRole('alert')).toHaveText('Enter a link starting with http:// or https://');
    expect((await visit(link.to)).headers.get('location')).toBe('https://example.com/old-board');

    // a new target, alias and click limit
    const newAlias = `${alias}-2`;
    await settings.getByLabel('Target').fill('https://example.com/new-board');
    await settings.getByLabel('Alias').fill(newAlias);
    await settings.getByLabel('Click limit').fill('7');
    await shot(page, 'links-detail-edit-manager');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect(toast(page, 'Link saved')).toBeVisible();
    await expect(page.getByTestId('short-link')).toHaveText(`${new URL(link.to).origin}/s/${newAlias}`);
    await expect(page.getByTestId('link-detail')).toContainText('https://example.com/new-board');
    // 5 visits, and one more while checking the refused edit changed nothing
    await expect(page.getByTestId('link-limits')).toHaveText('Limit 7 clicks (1 left)');
    expect((await visit(`/s/${alias}`)).status).toBe(404);
    expect((await visit(`/s/${newAlias}`)).headers.get('location')).toBe('https://example.com/new-board');
    const over = await visit(`/s/${newAlias}`);
    expect(over.status).toBe(410);
    await page.reload();
    await expect(page.getByTestId('link-status')).toHaveText('Expired', { timeout: 20_000 });
    await expect(page.getByTestId('link-limits')).toHaveText('Limit 7 clicks (0 left)');
    await shot(page, 'links-detail-expired-manager');

    // delete: the confirmation starts on Cancel; Cancel keeps the link
    await settings.getByRole('button', { name: 'Delete link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this link?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shot(page, 'links-delete-confirm-manager');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    expect((await apiCall('GET', `/api/link/${link._id}`, undefined, manager.token)).status).toBe(200);
    await settings.getByRole('button', { name: 'Delete link' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/links');
    await expect(toast(page, 'Link deleted')).toBeVisible();
    await expect(page.getByText('No Links')).toBeVisible();
    expect((await apiCall('GET', `/api/link/${link._id}`, undefined, manager.token)).status).toBe(404);
    expect((await visit(`/s/${newAlias}`)).status).toBe(404);
  });

  test('export the list, and API keys: create once, use from a script, revoke (manager, admin)', async ({ page }) => {
    const manager = await createUser('manager');
    await apiCall('POST', '/api/link/generate', { from: 'https://example.com/a,b' }, manager.token);
    await loginAs(page, manager, '/links');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('links.csv');
    const lines = fs
      .readFileSync((await file.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(lines[0]).toBe('Number,Short link,Target,Clicks,Created,Status,Expires,Click limit');
    expect(lines[1]).toContain(',"https://example.com/a,b",0,');
    await shot(page, 'links-list-actions-manager');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL('**/links/keys');
    await expect(page.getByText('No keys yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('alert')).toHaveText('Give the key a name (1 to 60 characters)');
    await page.getByLabel('Name').fill('Load board script');
    await page.getByLabel('Expires after').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key-value');
    await expect(shown).toHaveText(/^fd_live_[A-Za-z0-9]{32}$/);
    const key = (await shown.textContent())!;
    await expect(page.getByTestId('keys-table').locator('tbody tr')).toHaveCount(1);
    await expect(page.getByTestId('keys-table').locator('tbody tr td').nth(1)).toHaveText(`${key.slice(0, 12)}…`);
    await shot(page, 'links-keys-created-manager');

    // the script's call
    const scripted = await fetch(`${baseURL()}/api/link/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'https://example.com/from-script' }),
    });
    expect(scripted.status).toBe(200);
    expect((await fetch(`${baseURL()}/api/user/manager`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    // shown once: gone after a reload; last used shows
    await page.reload();
    await expect(page.getByTestId('new-key')).toHaveCount(0);
    await expect(page.getByTestId('keys-table').locator('tbody tr td').nth(4)).not.toHaveText('Never');
    await page.getByRole('button', { name: 'Revoke key Load board script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(page, 'Key revoked')).toBeVisible();
    await expect(page.getByText('No keys yet.')).toBeVisible();
    expect((await fetch(`${baseURL()}/api/link`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    // a click limit and an expiry from the Create screen's options
    await page.goto('/create');
    await page.getByRole('button', { name: /Custom alias, expiry and click limit/ }).click();
    await page.getByLabel('Click limit').fill('2');
    await page.getByLabel('Expires', { exact: true }).fill('01/15/2031');
    await page.getByLabel('Expires, time').fill('9:30 AM');
    await page.getByLabel('Enter Link').fill('https://example.com/limited');
    await shot(page, 'links-create-options-manager');
    await page.getByLabel('Enter Link').press('Enter');
    await page.waitForURL(/\/detail\//);
    const limits = await page.evaluate(
      () =>
        `Expires ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2031-01-15T09:30'))} · Limit 2 clicks (2 left)`,
    );
    await expect(page.getByTestId('link-limits')).toHaveText(limits);

    const admin = await createUser('admin');
    await loginAs(page, admin, '/links/keys');
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await page.getByLabel('Name').fill('Admin reports');
    await page.getByLabel('Expires after').selectOption({ label: 'No expiry' });
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('new-key-value')).toBeVisible();
    await expect(page.getByTestId('keys-table').locator('tbody tr td').nth(3)).toHaveText('Never');
    await shot(page, 'links-keys-admin');
  });
});
