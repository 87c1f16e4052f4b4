/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, baseURL, createUser, loginAs, shot, toast } from './helpers';

const SETTINGS = parseEnv(fs.readFileSync(path.resolve(import.meta.dirname, '..', '.dev.vars.example'), 'utf8'));

/** Idram's precheck and signed confirmation for an order, as the real result URL receives them. */
async function payThroughIdram(orderId: string, amount: number) {
  const post = async (fields: Record<string, string>) =>
    (
      await fetch(`${baseURL()}/api/payment/idram/result`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      })
    ).text();
  const base = { EDP_REC_ACCOUNT: '110000000', EDP_AMOUNT: `${amount}.00`, EDP_BILL_NO: orderId };
  expect(await post({ ...base, EDP_PRECHECK: 'YES' })).toBe('OK');
  const f: Record<string, string> = { ...base, EDP_PAYER_ACCOUNT: '100000000003', EDP_TRANS_ID: `E2E${Date.now()}`.slice(0, 14), EDP_TRANS_DATE: '01/12/2026' };
  f.EDP_CHECKSUM = createHash('md5')
    .update([f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, SETTINGS.IDRAM_SECRET_KEY, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'))
    .digest('hex');
  expect(await post(f)).toBe('OK');
}

const totalOf = async (page: Page) => Number((await page.getByTestId('confirmed-total').locator('strong').textContent())!.replace(/\D/g, ''));

test.describe('Admin payments: refunds and the price schedule (rules 0120, 0121)', () => {
  test('the admin refunds one month of a payment: the total is net of it, the months come back, the payer sees it', async ({ page, browser }) => {
    const manager = await createUser('manager', { subscriptionDays: 5, name: 'Rita Refund' });
    const made = await apiCall('POST', '/api/payment/generateLink', { amount: 3, paymentType: 'idram' }, manager.token);
    await payThroughIdram(made.body.orderId, 15000);
    const endBefore = (await apiCall('GET', '/api/subscription/status', undefined, manager.token)).body.subscriptionEndDate as string;

    const admin = await createUser('admin');
    await loginAs(page, admin, '/adminPayments/');
    await expect(page.getByTestId('confirmed-total')).toContainText('net of');
    const totalBefore = await totalOf(page);
    const all = page.getByTestId('all-payments');
    await all.getByLabel('Search').fill(manager.email);
    await expect(all.locator('tbody tr')).toHaveCount(1);
    await all.getByRole('button', { name: /^Refund order/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('at most 15,000 AMD left to refund');
    await dialog.getByLabel('Amount (AMD)').fill('5000');
    await dialog.getByLabel('Months to take back').fill('1');
    await shot(page, 'admin-refund-dialog');
    await dialog.getByRole('button', { name: 'Record refund' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Give a reason for the refund');
    await dialog.getByLabel('Reason').fill('One month was not used');
    await dialog.getByRole('button', { name: 'Record refund' }).click();
    await expect(toast(page, 'Refund recorded')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => totalOf(page)).toBe(totalBefore - 5000);
    await expect(all.locator('tbody tr').first().getByTestId('refund-note')).toHaveText('−5,000 AMD refunded, 1 month taken back');
    await shot(page, 'admin-payments-refund');

    const endAfter = (await apiCall('GET', '/api/subscription/status', undefined, manager.token)).body.subscriptionEndDate as string;
    const back = new Date(endBefore);
    back.setUTCMonth(back.getUTCMonth() - 1);
    expect(Math.abs(new Date(endAfter).getTime() - back.getTime())).toBeLessThan(4 * 86_400_000);

    const payer = await browser.newPage();
    await loginAs(payer, manager, '/payment/');
    const row = payer.locator('[data-testid="payment-history"] tbody tr').first();
    await expect(row.getByTestId('refund-note')).toHaveText('−5,000 AMD refunded, 1 month taken back');
    await row.getByRole('link', { name: /^Receipt of order/ }).click();
    await expect(payer.getByTestId('receipt-refunds')).toContainText('One month was not used');
    await shot(payer, 'receipt-with-refund');
    await payer.close();
  });

  test('the admin schedules a new price; users see it before it applies; a change not started can be cancelled', async ({ page, browser }) => {
    const admin = await createUser('admin');
    await loginAs(page, admin, '/adminPayments/');
    await expect(page.getByTestId('price-now')).toContainText('5,000 AMD per month now');
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('New price (AMD)').fill('6000');
    await page.getByLabel('From').fill(day);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect(toast(page, 'Price change scheduled')).toBeVisible();
    await expect(page.getByTestId('price-changes')).toContainText('6,000 AMD');
    await shot(page, 'admin-price-schedule');

    const user = await createUser('agent', { subscriptionDays: 2 });
    const userPage = await browser.newPage();
    await loginAs(userPage, user, '/payment/');
    await expect(userPage.getByTestId('price-upcoming')).toHaveText(/^From .+: 6,000 AMD per month$/);
    await expect(userPage.getByTestId('payment-total').locator('strong')).toHaveText('5,000 AMD');
    await shot(userPage, 'payment-upcoming-price');
    await userPage.close();

    // cancelled: the shared database keeps its price for the other tests
    await page.getByTestId('price-changes').getByRole('button', { name: 'Cancel' }).click();
    await expect(toast(page, 'Price change cancelled')).toBeVisible();
    await expect(page.getByTestId('price-changes')).toHaveCount(0);
    expect((await apiCall('GET', '/api/payment/monthlyprice', undefined, user.token)).body.upcoming).toBeNull();
  });
});
