/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, baseURL, createUser, type E2EUser, loginAs, shot } from './helpers';

const PRICE = 5000;
/** The server under test runs with the local development settings (playwright.config.ts). */
const IDRAM_SECRET_KEY = parseEnv(fs.readFileSync(path.resolve(import.meta.dirname, '..', '.dev.vars.example'), 'utf8')).IDRAM_SECRET_KEY!;
const storedSession = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' }).locator('a, button');
const historyRows = (page: Page) => page.locator('[data-testid="payment-history"] tbody tr');
const total = (page: Page) => page.getByTestId('payment-total').locator('strong');

/** Idram in the browser: the pay page posts the form to the simulator, which shows the order; Pay or Decline. */
async function throughSimulator(page: Page, action: 'Pay' | 'Decline', expectedAmount: string, shotName?: string) {
  await reachSimulator(page);
  await expect(page.getByRole('heading', { name: 'Confirm the payment' })).toBeVisible();
  await expect(page.getByTestId('sim-amount')).toHaveText(expectedAmount);
  if (shotName) await shot(page, shotName);
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.waitForURL(`**/paymentResult/${action === 'Pay' ? 'confirmed' : 'failed'}`);
}

/**
 * Waits for the simulator's page. A CI run once timed out here with no page reached and nothing
 * on screen to say why: if it happens again, the failure names the requests still open and the
 * ones that failed since Pay with Idram, so the next run says which step stalled.
 */
async function reachSimulator(page: Page) {
  const open = new Map<Request, string>();
  const failed: string[] = [];
  const started = Date.now();
  const label = (r: Request) => `${r.method()} ${new URL(r.url()).pathname} at +${Date.now() - started} ms`;
  const onRequest = (r: Request) => open.set(r, label(r));
  const onDone = (r: Request) => open.delete(r);
  const onFailed = (r: Request) => {
    open.delete(r);
    failed.push(`${label(r)}: ${r.failure()?.errorText}`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onFailed);
  try {
    await page.waitForURL('**/api/payment/idram/simulator', { timeout: 40_000 });
  } catch (err) {
    const alert = await page
      .getByRole('alert')
      .allTextContents()
      .catch(() => []);
    throw new Error(
      `The simulator was not reached (${page.url()}). Open: ${[...open.values()].join('; ') || 'none'}. Failed: ${failed.join('; ') || 'none'}. On screen: ${alert.join(' | ') || 'no alert'}. ${(err as Error).message}`,
    );
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onFailed);
  }
}

async function subscription(user: E2EUser) {
  return (await apiCall('GET', '/api/subscription/status', undefined, user.token)).body as {
    isSubscriptionActive: boolean;
    subscriptionDaysLeft: number;
    subscriptionEndDate: string | null;
  };
}

test.describe('Payment (/payment) and Admin payments', () => {
  test('an expired manager uses a promo code, pays 2 months for an agent and 1 for itself through the simulator; the screens unlock', async ({
    page,
    browser,
  }) => {
    // three trips through the simulator and a second browser: about 22 s here, so 60 s left too little
    // room on a busy CI machine
    test.slow();
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

    await loginAs(page, manager, '/');
    // expired: every other screen leads to Payment
    await page.waitForURL('**/payment/');
    await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
    // the banner stays off the payment page (spec: hidden there); the status card says it instead
    await expect(page.getByTestId('subscription-banner')).toHaveCount(0);
    await expect(page.getByTestId('subscription-status').locator('.label-pill')).toHaveText('Expired');
    await expect(menu(page).filter({ hasText: /^My Team$/ })).toHaveCount(0);
    await expect(page.getByTestId('card-note')).toHaveText(/^Visa Payment Temporary not supported/);
    await expect(page.getByRole('button', { name: 'Pay by card (Visa / Mastercard)' })).toBeDisabled();
    await expect(total(page)).toHaveText('5,000 AMD');

    // promo code: search, use, and the totals show the discount
    await page.getByLabel('Promo code').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert').first()).toHaveText('Promo code not found');
    await page.getByLabel('Promo code').fill(code);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('promo-found')).toContainText('10% off your next payment');
    await page.getByRole('button', { name: 'Use promo code' }).click();
    await expect(page.getByTestId('promo-pending')).toHaveText(`Promo code ${code}: 10% off your next payment.`);
    await expect(total(page)).toHaveText('4,500 AMD');
    await shot(page, 'payments-payment-manager-expired');

    // Pay for Team: the verified agent has Pay, the other one the spec's note
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    const team = page.getByTestId('team-subscriptions');
    await expect(team.locator('tbody tr', { hasText: 'Una Unverified' })).toContainText('Email is not verified');
    await expect(team.locator('tbody tr', { hasText: 'Arto Agent' })).toContainText('Expired');
    await shot(page, 'payments-pay-for-team-manager');
    await page.getByRole('button', { name: 'Pay for Arto Agent' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'New Payment for Arto Agent' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'One month less' })).toBeDisabled();
    await dialog.getByLabel('Months to buy').fill('0');
    await expect(dialog.getByRole('alert')).toHaveText('Months to buy: minimum 1');
    await expect(dialog.getByRole('button', { name: 'Pay with Idram' })).toBeDisabled();
    await dialog.getByLabel('Months to buy').fill('1');
    await dialog.getByRole('button', { name: 'One month more' }).click();
    await expect(dialog.getByLabel('Months to buy')).toHaveValue('2');
    await expect(dialog.getByTestId('payment-total').locator('strong')).toHaveText('9,000 AMD');
    await shot(page, 'payments-pay-for-agent-dialog');
    await dialog.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Pay', '9,000 AMD', 'payments-idram-simulator');
    await expect(page.getByRole('heading', { name: 'Payment Received!' })).toBeVisible();
    await shot(page, 'payments-result-confirmed');

    const agentStatus = await subscription(agent);
    expect(agentStatus.isSubscriptionActive).toBe(true);
    expect(agentStatus.subscriptionDaysLeft).toBeGreaterThanOrEqual(58);
    expect((await subscription(manager)).isSubscriptionActive).toBe(false);

    // back on Payment: the history shows it confirmed, the discount is spent, the agent is active
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    const first = historyRows(page).first();
    await expect(first).toContainText('Arto Agent');
    await expect(first).toContainText('9,000 AMD');
    await expect(first.locator('[data-status="confirmed"]')).toHaveText('✓ confirmed');
    await expect(page.getByTestId('promo-pending')).toHaveCount(0);
    await expect(total(page)).toHaveText('5,000 AMD');
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    await expect(team.locator('tbody tr', { hasText: 'Arto Agent' })).toContainText('Active');
    await page.getByRole('tab', { name: 'Pay for Me' }).click();

    // Decline once: the failure page, and the history says Declined
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Decline', '5,000 AMD');
    await expect(page.getByTestId('failed-text')).toHaveText(/^Payment Failed\. Please try again, .* contact us by email at support@freightdesk\.example\.$/);
    await shot(page, 'payments-result-failed');
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await expect(historyRows(page).first().locator('[data-status]')).toHaveText('Declined');

    // Pay for Me: 1 month at the full price; the session and the menu unlock at once
    await expect.poll(async () => (await storedSession(page)).isSubscriptionActive).toBe(false);
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await throughSimulator(page, 'Pay', '5,000 AMD');
    await expect(page.getByRole('heading', { name: 'Payment Received!' })).toBeVisible();
    await expect.poll(async () => (await storedSession(page)).isSubscriptionActive).toBe(true);
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await expect(page.getByTestId('subscription-status').locator('.label-pill')).toHaveText('Active');
    await expect.poll(async () => Number(await page.getByTestId('days-left').textContent())).toBeGreaterThanOrEqual(27);
    await expect(page.getByTestId('subscription-banner')).toHaveCount(0);
    await expect(menu(page).filter({ hasText: /^My Team$/ })).toHaveCount(1);
    await expect(historyRows(page)).toHaveCount(3);
    await shot(page, 'payments-payment-manager-paid');
    await page.getByRole('link', { name: 'My Team' }).click();
    await page.waitForURL('**/users');
    await expect(page.getByRole('heading', { name: 'My Team' })).toBeVisible();

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
    f.EDP_CHECKSUM = createHash('md5')
      .update([f.EDP_REC_ACCOUNT, f.EDP_AMOUNT, IDRAM_SECRET_KEY, f.EDP_BILL_NO, f.EDP_PAYER_ACCOUNT, f.EDP_TRANS_ID, f.EDP_TRANS_DATE].join(':'))
      .digest('hex');
    const replay = await fetch(`${baseURL()}/api/payment/idram/result`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(f),
    });
    expect([replay.status, await replay.text()]).toEqual([200, 'OK']);
    expect(await subscription(manager)).toEqual(before);

    // the agent: unlocked, lands on its default screen, and sees the payment made for it
    const agentPage = await browser.newPage();
    await loginAs(agentPage, agent, '/');
    await agentPage.waitForURL('**/companyFilters');
    await agentPage.goto('/payment/');
    await expect(historyRows(agentPage)).toHaveCount(1);
    await expect(historyRows(agentPage).first()).toContainText('Mara Manager');
    await expect(agentPage.getByRole('tab', { name: 'Pay for Team' })).toHaveCount(0);
    await shot(agentPage, 'payments-payment-agent');
    await agentPage.close();

    // the admin: Total of confirmed AMD, the chart, Confirmed Payments and All Payments
    const admin = await createUser('admin');
    const adminPage = await browser.newPage();
    await loginAs(adminPage, admin, '/adminPayments/');
    await expect(adminPage.getByRole('heading', { name: 'Payments', exact: true })).toBeVisible();
    await expect
      .poll(async () => Number((await adminPage.getByTestId('confirmed-total').locator('strong').textContent())!.replace(/\D/g, '')))
      .toBeGreaterThanOrEqual(9000 + PRICE);
    await expect(adminPage.getByTestId('revenue-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
    await adminPage.getByTestId('confirmed-payments').getByLabel('Search').fill(agent.email);
    await expect(adminPage.getByTestId('confirmed-payments').locator('tbody tr')).toHaveCount(1);
    await adminPage.getByTestId('all-payments').getByLabel('Search').fill(manager.email);
    await expect(adminPage.getByTestId('all-payments').locator('tbody tr')).toHaveCount(3);
    await adminPage.getByTestId('confirmed-payments').getByLabel('Search').fill('');
    await adminPage.getByTestId('all-payments').getByLabel('Search').fill('');
    await shot(adminPage, 'payments-admin');
    await adminPage.close();
  });

  test("a failed link shows the spec's message; unknown result statuses say Something went wrong", async ({ page }) => {
    const agent = await createUser('agent', { subscriptionDays: 3.5 });
    await loginAs(page, agent, '/payment/');
    await expect(page.getByRole('button', { name: 'Pay with Idram' })).toBeVisible();
    // the order is real; only the link answer is replaced, as if link generation had failed
    await page.route('**/api/payment/getPaymentLink', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ isLinkGenerated: false, isLinkGenerationFailed: true, paymentURL: null, userAndPayerMatch: true }),
      }),
    );
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /^Payment Failed, please try again$/ })).not.toHaveCount(0);
    await expect(page).toHaveURL(/\/payment\/$/);
    // the attempt is recorded (the order is real, and open at Idram until it expires) and listed as unpaid
    await expect(historyRows(page).first().locator('[data-status]')).toHaveText('Waiting for payment');
    await expect(page.getByTestId('subscription-banner')).toHaveCount(0);
    await shot(page, 'payments-link-failed-agent');
    await page.goto('/paymentResult/whatever');
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await page.goto('/paymentResult/arca_result');
    await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  });
});
