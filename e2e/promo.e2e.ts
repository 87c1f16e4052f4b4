/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, baseURL, createUser, loginAs, shot } from './helpers';

const rows = (page: Page, table: string) => page.locator(`[data-testid="${table}"] tbody tr`);
const tab = (page: Page, name: RegExp) => page.getByRole('tab', { name });
const toast = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

test.describe('Promo Codes', () => {
  test('marketing generates 50 codes, copies and hands one out; a manager uses it on the Payment screen; it moves to Activated', async ({ page, browser }) => {
    const marketing = await createUser('marketing');
    // other browser tests share this database and make public codes too: count from what is there
    const before = (await apiCall('GET', '/api/promocode/freeAndPublic', undefined, marketing.token)).body.length as number;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    await loginAs(page, marketing, '/promoCodes/');
    await expect(page.getByRole('heading', { name: 'Promo Codes', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Create Promo Codes' })).toBeVisible();

    // the type is required; nothing is sent without it
    await page.getByLabel('Effect value').fill('abc');
    await page.getByLabel('Amount of codes').fill('50');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByRole('alert')).toHaveText('Select the promo type');
    // non-numeric became 1
    await expect(page.getByLabel('Effect value')).toHaveValue('1');
    await shot(page, 'promo-create-error-marketing');

    await page.getByLabel('Promo type').selectOption('discountPercent');
    await page.getByLabel('Discount, %').fill('20');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByRole('heading', { name: 'Generated codes (50)' })).toBeVisible();
    await expect(page.getByTestId('generated-codes').locator('li')).toHaveCount(50);
    const names = (await page.getByTestId('generated-codes').locator('code').allTextContents()).map((t) => t.trim());
    expect(new Set(names).size).toBe(50);
    for (const n of names) expect(n).toMatch(/^[A-HJKMNP-Z2-9]{10}$/);
    await expect(toast(page, '50 promo codes created')).toBeVisible();

    // copy one code to the clipboard
    const code = names[0]!;
    await page
      .getByRole('button', { name: `Copy ${code}` })
      .first()
      .click();
    await expect(page.getByTestId('generated-codes').getByText('Copied!')).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await shot(page, 'promo-generated-marketing');

    // all 50 are in Free Promo Codes, beside the ones made before
    await expect(tab(page, new RegExp(`^Free Promo Codes \\(${before + 50}\\)$`))).toBeVisible();
    await expect(page.locator('[data-testid="free-codes"] .page-info')).toHaveText(`Page 1 of ${Math.ceil((before + 50) / 10)}`);
    await page.getByTestId('free-codes').getByLabel('Search').fill(code);
    await expect(rows(page, 'free-codes')).toHaveCount(1);
    await expect(rows(page, 'free-codes').first()).toContainText('20% off the next payment');
    await shot(page, 'promo-free-marketing');

    // mark it as given away (the editable list); it moves to Used Promo Codes
    await rows(page, 'free-codes').first().getByLabel(`Select ${code}`).check();
    await page.getByRole('button', { name: 'Mark selected as given away (1)' }).click();
    await expect(toast(page, '1 promo code updated')).toBeVisible();
    // other browser tests share this database, so counts are compared, not fixed
    await tab(page, /^Used Promo Codes \(\d+\)$/).click();
    await page.getByLabel('Search').fill(code);
    await expect(rows(page, 'used-codes').first()).toContainText(code);
    await expect(rows(page, 'used-codes').first()).toContainText('Handed out');
    await expect(rows(page, 'used-codes').first()).toContainText('0 / 1');
    await shot(page, 'promo-used-marketing');

    // a manager finds it on the Payment screen, uses it, and sees the discount in the total
    const manager = await createUser('manager');
    const price = (await apiCall('GET', '/api/payment/monthlyprice', undefined, manager.token)).body.price as number;
    const managerPage = await browser.newPage();
    await loginAs(managerPage, manager, '/payment/');
    await managerPage.getByLabel('Promo code').fill(code.toLowerCase());
    await managerPage.getByRole('button', { name: 'Search' }).click();
    await expect(managerPage.getByTestId('promo-found').getByText('20% off your next payment')).toBeVisible();
    await managerPage.getByRole('button', { name: 'Use promo code' }).click();
    await expect(toast(managerPage, 'Promo code applied: 20% off the next payment')).toBeVisible();
    const total = managerPage.getByTestId('payment-total');
    await expect(total).toContainText(`−20% (${code})`);
    const discounted = Math.round((price * 80) / 100).toLocaleString('en-US');
    await expect(total.locator('strong')).toHaveText(`${discounted} AMD`);
    await shot(managerPage, 'promo-payment-discount-manager');
    // a second try is refused with the message
    await managerPage.getByLabel('Promo code').fill(code);
    await managerPage.getByRole('button', { name: 'Search' }).click();
    // shown inline or as a toast, as the Payment screen chooses
    await expect(managerPage.getByText('Promo code is already used', { exact: true }).first()).toBeVisible();
    await managerPage.close();

    // the code is now in Activated Promo Codes, with who used it
    await page.reload();
    await tab(page, /^Activated Promo Codes \(\d+\)$/).click();
    await page.getByLabel('Search').fill(code);
    await expect(rows(page, 'finished-codes').first()).toContainText(code);
    await expect(rows(page, 'finished-codes').first()).toContainText(manager.email);
    await tab(page, /^Used Promo Codes \(\d+\)$/).click();
    await page.getByLabel('Search').fill(code);
    await expect(rows(page, 'used-codes').first()).not.toContainText(code);
    await shot(page, 'promo-activated-marketing');
  });

  test('admin assigns a free code to a user by e-mail; only that user can use it; free months are added', async ({ page, browser }) => {
    const admin = await createUser('admin');
    const owner = await createUser('agent', { subscriptionDays: 5 });
    const stranger = await createUser('manager');
    const made = await apiCall('POST', '/api/promocode/createRandomPublic', { effectType: 'freeMonths', effectValue: 2, generateAmount: 3 }, admin.token);
    const code = made.body.codes[0].name as string;

    await loginAs(page, admin, '/promoCodes/');
    await page.getByTestId('free-codes').getByLabel('Search').fill(code);
    await expect(rows(page, 'free-codes')).toHaveCount(1);
    await page.getByRole('button', { name: `Assign ${code} to a user` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(dialog.getByText("Enter the user's e-mail")).toBeVisible();
    await dialog.getByLabel('User e-mail').fill('nobody@nowhere.example');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(dialog.getByText('User not found')).toBeVisible();
    await shot(page, 'promo-assign-admin');
    await dialog.getByLabel('User e-mail').fill(owner.email);
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(toast(page, `Promo code ${code} assigned to ${owner.email}`)).toBeVisible();
    await tab(page, /^Used Promo Codes/).click();
    await page.getByTestId('used-codes').getByLabel('Search').fill(code);
    await expect(rows(page, 'used-codes').first()).toContainText(owner.email);

    // someone else cannot see it; the owner uses it and gets two months
    expect((await apiCall('POST', '/api/promocode/checkPromoCode', { name: code }, stranger.token)).body.message).toBe('Promo code not found');
    const ownerPage = await browser.newPage();
    await loginAs(ownerPage, owner, '/payment/');
    await ownerPage.getByLabel('Promo code').fill(code);
    await ownerPage.getByRole('button', { name: 'Search' }).click();
    await expect(ownerPage.getByTestId('promo-found').getByText('2 free months')).toBeVisible();
    await ownerPage.getByRole('button', { name: 'Use promo code' }).click();
    await expect(toast(ownerPage, 'Promo code applied: 2 free months')).toBeVisible();
    const status = (await apiCall('GET', '/api/subscription/status', undefined, owner.token)).body;
    expect(status.subscriptionDaysLeft).toBeGreaterThanOrEqual(5 + 58);
    await ownerPage.close();

    await page.reload();
    await tab(page, /^Activated Promo Codes/).click();
    await page.getByTestId('finished-codes').getByLabel('Search').fill(code);
    await expect(rows(page, 'finished-codes').first()).toContainText(owner.email);
  });
});
