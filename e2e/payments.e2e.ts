/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper without types
import { DEV_DEFAULTS } from '../scripts/dev-vars.mjs';
import { apiCall, baseURL, createUser, type E2EUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PRICE = 5000;
const storedSession = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' }).locator('a, button').allTextContents();
const historyRows = (page: Page) => page.locator('[data-testid="payment-history"] tbody tr');

/** Idram in the browser: the pay page posts the form to the simulator, which shows the order; Pay or Decline. */
async function throughSimulator(page: Page, action: 'Pay' | 'Decline', expectedAmount: string, shotName?: string) {
  await page.waitForURL('**/api/payment/idram/simulator');
  await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
  expect(await page.getByTestId('sim-amount').textContent()).toBe(expectedAmount);
  if (shotName) await shot(page, shotName);
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.waitForURL(`**/paymentResult/${action === 'Pay' ? 'confirmed' : 'failed'}`);
}

async function subscription(user: E2EUser) {
  return (await apiCall('GET', '/api/subscription/status', undefined, user.token)).body as {
    isSubscriptionActive: boolean;
    subscriptionDaysLeft: number;
    subscriptionEndDate: string | null;
  };
}

describe('Payment (/payment) and Admin payments', () => {
  it('an expired manager uses a promo code, pays 2 months for an agent and 1 for itself through the simulator; the screens unlock', async () => {
    const manager = await createUser('manager', { subscriptionDays: -3, name: 'Mara Manager' });
    const agent = await createUser('agent', { parentId: manager.id, subscriptionDays: -1, name: 'Arto Agent' });
    await createUser('agent', { parentId: manager.id, isEmailVerified: false, name: 'Una Unverified' });
    const marketing = await createUser('marketing');
    const promo = await apiCall(
      'POST',
      '/api/promocode/createRandomPublic',
      { effectType: 'discountPercent', effectValue: 10, generateAmount: 1 },
      marketing.token,
    );
    const code: string = promo.body.codes[0].name;

    const page = await newPage(browser);
    await loginAs(page, manager, '/');
    // expired: every other screen leads to Payment
    await page.waitForURL('**/payment/');
    await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
    // the banner stays off the payment page (spec: hidden there); the status card says it instead
    expect(await page.getByTestId('subscription-banner').count()).toBe(0);
    expect(await page.getByTestId('subscription-status').locator('.label-pill').textContent()).toBe('Expired');
    expect(await menu(page)).not.toContain('My Team');
    expect(await page.getByTestId('card-note').textContent()).toMatch(/^Visa Payment Temporary not supported/);
    await expect(page.getByRole('button', { name: 'Pay by card (Visa / Mastercard)' }).isDisabled()).resolves.toBe(true);
    expect(await page.getByTestId('payment-total').locator('strong').textContent()).toBe('5,000 AMD');

    // promo code: search, use, and the totals show the discount
    await page.getByLabel('Promo code').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('Promo code not found');
    await page.getByLabel('Promo code').fill(code);
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.getByTestId('promo-found').textContent()).toContain('10% off your next payment');
    await page.getByRole('button', { name: 'Use promo code' }).click();
    await page.getByTestId('promo-pending').waitFor();
    expect(await page.getByTestId('promo-pending').textContent()).toBe(`Promo code ${code}: 10% off your next payment.`);
    expect(await page.getByTestId('payment-total').locator('strong').textContent()).toBe('4,500 AMD');
    await shot(page, 'payments-payment-manager-expired');

    // Pay for Team: the verified agent has Pay, the other one the spec's note
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    const team = page.getByTestId('team-subscriptions');
    await team.locator('tbody tr').first().waitFor();
    expect(await team.locator('tbody tr', { hasText: 'Una Unverified' }).textContent()).toContain('Email is not verified');
    expect(await team.locator('tbody tr', { hasText: 'Arto Agent' }).textContent()).toContain('Expired');
    await shot(page, 'payments-pay-for-team-manager');
    await page.getByRole('button', { name: 'Pay for Arto Agent' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'New Payment for Arto Agent' }).waitFor();
    await expect(dialog.getByRole('button', { name: 'One month less' }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Months to buy').fill('0');
    expect(await dialog.getByRole('alert').textContent()).toBe('Months to buy: minimum 1');
    await expect(dialog.getByRole('button', { name: 'Pay with Idram' }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Months to buy').fill('1');
    await dialog.getByRole('button', { name: 'One month more' }).click();
    expect(await dialog.getByLabel('Months to buy').inputValue()).toBe('2');
    expect(await dialog.getByTestId('payment-total').locator('strong').textContent()).toBe('9,000 AMD');
    await shot(page, 'payments-pay-for-agent-dialog');
    await dialog.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Pay', '9,000 AMD', 'payments-idram-simulator');
    await page.getByRole('heading', { name: 'Payment Received!' }).waitFor();
    await shot(page, 'payments-result-confirmed');

    const agentStatus = await subscription(agent);
    expect(agentStatus.isSubscriptionActive).toBe(true);
    expect(agentStatus.subscriptionDaysLeft).toBeGreaterThanOrEqual(58);
    expect((await subscription(manager)).isSubscriptionActive).toBe(false);

    // back on Payment: the history shows it confirmed, the discount is spent, the agent is active
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await historyRows(page).first().waitFor();
    const first = historyRows(page).first();
    expect(await first.textContent()).toContain('Arto Agent');
    expect(await first.textContent()).toContain('9,000 AMD');
    expect(await first.locator('[data-status="confirmed"]').textContent()).toBe('✓ confirmed');
    expect(await page.getByTestId('promo-pending').count()).toBe(0);
    expect(await page.getByTestId('payment-total').locator('strong').textContent()).toBe('5,000 AMD');
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    await expect.poll(() => team.locator('tbody tr', { hasText: 'Arto Agent' }).textContent()).toContain('Active');
    await page.getByRole('tab', { name: 'Pay for Me' }).click();

    // Decline once: the failure page, and the history says Declined
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Decline', '5,000 AMD');
    expect(await page.getByTestId('failed-text').textContent()).toMatch(
      /^Payment Failed\. Please try again, .* contact us by email at support@freightdesk\.example\.$/,
    );
    await shot(page, 'payments-result-failed');
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await expect.poll(async () => historyRows(page).first().locator('[data-status]').textContent()).toBe('Declined');

    // Pay for Me: 1 month at the full price; the session and the menu unlock at once
    expect((await storedSession(page)).isSubscriptionActive).toBe(false);
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Pay', '5,000 AMD');
    await page.getByRole('heading', { name: 'Payment Received!' }).waitFor();
    await expect.poll(async () => (await storedSession(page)).isSubscriptionActive).toBe(true);
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await page.getByTestId('subscription-status').waitFor();
    await expect.poll(() => page.getByTestId('subscription-status').locator('.label-pill').textContent()).toBe('Active');
    expect(Number(await page.getByTestId('days-left').textContent())).toBeGreaterThanOrEqual(27);
    expect(await page.getByTestId('subscription-banner').count()).toBe(0);
    expect(await menu(page)).toContain('My Team');
    await expect.poll(() => historyRows(page).count()).toBe(3);
    await shot(page, 'payments-payment-manager-paid');
    await page.getByRole('link', { name: 'My Team' }).click();
    await page.waitForURL('**/users');
    await page.getByRole('heading', { name: 'My Team' }).waitFor();

    // replaying Idram's confirmation of the paid order answers OK and changes nothing
    const history = (await apiCall('GET', '/api/payment/paymentHistory', undefined, manager.token)).body as {
      _id: string;
      priceTotal: number;
      user: { _id: string };
      isPaymentConfirmed: boolean;
    }[];
    const paid = history.find((p) => p.isPaymentConfirmed && p.user._id === manager.id)!;
    const before = await subscription(manager);
    const f: Record<string, string> = {
      EDP_REC_ACCOUNT: '110000000',
      EDP_AMOUNT: `${paid.priceTotal}.00`,
      EDP_BILL_NO: paid._id,
      EDP_PAYER_ACCOUNT: '100000000002',
      EDP_TRANS_ID: 'REPLAY00000001',
      EDP_TRANS_DATE: '01/01/2026',
    };
    const secret = process.env.IDRAM_SECRET_KEY || DEV_DEFAULTS.IDRAM_SECRET_KEY;
    f.EDP_CHECKSUM = createHash('md5')
      .update([f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, secret, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'))
      .digest('hex');
    const replay = await fetch(`${baseURL()}/api/payment/idram/result`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(f),
    });
    expect([replay.status, await replay.text()]).toEqual([200, 'OK']);
    expect(await subscription(manager)).toEqual(before);
    await page.close();

    // the agent: unlocked, lands on its default screen, and sees the payment made for it
    const agentPage = await newPage(browser);
    await loginAs(agentPage, agent, '/');
    await agentPage.waitForURL('**/companyFilters');
    await agentPage.goto('/payment/');
    await historyRows(agentPage).first().waitFor();
    expect(await historyRows(agentPage).count()).toBe(1);
    expect(await historyRows(agentPage).first().textContent()).toContain('Mara Manager');
    expect(await agentPage.getByRole('tab', { name: 'Pay for Team' }).count()).toBe(0);
    await shot(agentPage, 'payments-payment-agent');
    await agentPage.close();

    // the admin: Total of confirmed AMD, the chart, Confirmed Payments and All Payments
    const admin = await createUser('admin');
    const adminPage = await newPage(browser);
    await loginAs(adminPage, admin, '/adminPayments/');
    await adminPage.getByRole('heading', { name: 'Payments', exact: true }).waitFor();
    const totalText = await adminPage.getByTestId('confirmed-total').locator('strong').textContent();
    expect(Number(totalText!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(9000 + PRICE);
    await adminPage.getByTestId('revenue-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await adminPage.getByTestId('confirmed-payments').getByLabel('Search').fill(agent.email);
    expect(await adminPage.getByTestId('confirmed-payments').locator('tbody tr').count()).toBe(1);
    await adminPage.getByTestId('all-payments').getByLabel('Search').fill(manager.email);
    expect(await adminPage.getByTestId('all-payments').locator('tbody tr').count()).toBe(3);
    await adminPage.getByTestId('confirmed-payments').getByLabel('Search').fill('');
    await adminPage.getByTestId('all-payments').getByLabel('Search').fill('');
    await shot(adminPage, 'payments-admin');
    await adminPage.close();
  });

  it("a failed link shows the spec's message; unknown result statuses say Something went wrong", async () => {
    const agent = await createUser('agent', { subscriptionDays: 3.5 });
    const page = await newPage(browser);
    await loginAs(page, agent, '/payment/');
    await page.getByRole('button', { name: 'Pay with Idram' }).waitFor();
    // the order is real; only the link answer is replaced, as if link generation had failed
    await page.route('**/api/payment/getPaymentLink', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ isLinkGenerated: false, isLinkGenerationFailed: true, paymentURL: null, userAndPayerMatch: true }),
      }),
    );
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('Payment Failed, please try again');
    expect(page.url()).toMatch(/\/payment\/$/);
    // the attempt is recorded (the order is real) and listed as unpaid
    await expect.poll(() => historyRows(page).first().locator('[data-status]').textContent()).toBe('Canceled');
    expect(await page.getByTestId('subscription-banner').count()).toBe(0);
    await shot(page, 'payments-link-failed-agent');
    await page.goto('/paymentResult/whatever');
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    await page.goto('/paymentResult/arca_result');
    await page.getByRole('heading', { name: 'Payment Failed' }).waitFor();
    await page.close();
  });
});
