/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot } from './helpers';

const historyRows = (page: Page) => page.locator('[data-testid="payment-history"] tbody tr');
const outbox = async () => (await apiCall('GET', '/api/dev/outbox')).body as { to: string; subject: string; text: string }[];
const endOf = async (user: E2EUser) => (await apiCall('GET', '/api/subscription/status', undefined, user.token)).body.subscriptionEndDate as string | null;

test.describe('Pay for Team: one order for several agents (rule 0118)', () => {
  test('a manager pays 2 months for three agents in one order through the simulator and finds the receipt in the outbox', async ({ page, browser }) => {
    const manager = await createUser('manager', { subscriptionDays: 40, name: 'Mara Teamlead' });
    const agents = [
      await createUser('agent', { parentId: manager.id, subscriptionDays: -2, name: 'Ani Expired' }),
      await createUser('agent', { parentId: manager.id, subscriptionDays: null, name: 'Bella Newcomer' }),
      await createUser('agent', { parentId: manager.id, subscriptionDays: 10, name: 'Cyrus Active' }),
    ];
    await createUser('agent', { parentId: manager.id, isEmailVerified: false, name: 'Una Unverified' });
    const cyrusEnd = (await endOf(agents[2]!))!;

    await loginAs(page, manager, '/payment/');
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    const team = page.getByTestId('team-subscriptions');
    await expect(team.getByRole('checkbox', { name: 'Select Una Unverified' })).toBeDisabled();
    await expect(page.getByTestId('team-checkout-empty')).toBeVisible();
    for (const a of agents) await team.getByRole('checkbox', { name: `Select ${a.name}` }).check();
    const checkout = page.getByTestId('team-checkout');
    await expect(checkout.getByTestId('team-lines').locator('tbody tr')).toHaveCount(3);
    await checkout.getByRole('button', { name: 'One month more' }).click();
    await expect(checkout.getByLabel('Months to buy')).toHaveValue('2');
    await expect(checkout.getByTestId('team-total').locator('strong')).toHaveText('30,000 AMD');
    await expect(checkout.getByTestId('team-total')).toContainText('Total for 3 agents');
    await shot(page, 'team-payment-months');

    // aligned to the manager's end date: the rule is shown before paying, each agent by the day
    await checkout.getByRole('radio', { name: /^Up to my end date/ }).check();
    await expect(checkout.getByTestId('align-rule')).toContainText('5,000 AMD ÷ 30 per day');
    await expect(checkout.getByTestId('team-lines').locator('tbody tr', { hasText: 'Cyrus Active' })).toContainText('30 days');
    await expect(checkout.getByTestId('team-lines').locator('tbody tr', { hasText: 'Bella Newcomer' })).toContainText('40 days');
    await shot(page, 'team-payment-aligned');
    await checkout.getByRole('radio', { name: 'Months for each agent' }).check();
    await expect(checkout.getByTestId('team-total').locator('strong')).toHaveText('30,000 AMD');

    await checkout.getByRole('button', { name: 'Pay 30,000 AMD with Idram' }).click();
    await page.waitForURL('**/api/payment/idram/simulator');
    await expect(page.getByTestId('sim-amount')).toHaveText('30,000 AMD');
    await expect(page.locator('main')).toContainText('FreightDesk subscription for 3 agents, 2 months each');
    await shot(page, 'team-payment-simulator');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL('**/paymentResult/confirmed');
    await expect(page.getByRole('heading', { name: 'Payment Received!' })).toBeVisible();

    // each agent extended once: two months from its end date, or from now
    for (const a of agents.slice(0, 2)) expect(new Date((await endOf(a))!).getTime()).toBeGreaterThan(Date.now() + 58 * 86_400_000);
    const cyrusNew = new Date(cyrusEnd);
    cyrusNew.setUTCMonth(cyrusNew.getUTCMonth() + 2);
    expect(Math.abs(new Date((await endOf(agents[2]!))!).getTime() - cyrusNew.getTime())).toBeLessThan(3 * 86_400_000);

    // Payment History shows the order with its agents, and its receipt prints
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    const row = historyRows(page).first();
    await expect(row.getByTestId('team-order-agents')).toContainText('3 agents');
    await expect(row).toContainText('Ani Expired, Bella Newcomer, Cyrus Active');
    await expect(row).toContainText('30,000 AMD');
    await expect(row.locator('[data-status="confirmed"]')).toBeVisible();
    await shot(page, 'team-payment-history');
    await row.getByRole('link', { name: /^Receipt of order/ }).click();
    const receipt = page.getByTestId('receipt');
    await expect(receipt.getByRole('heading', { name: 'Receipt' })).toBeVisible();
    for (const a of agents) await expect(receipt).toContainText(a.name);
    await expect(page.getByTestId('receipt-totals')).toContainText('30,000 AMD');
    await expect(page.getByTestId('receipt-transaction')).toHaveText(/^[A-Za-z0-9]{14}$/);
    const orderNumber = (await receipt.locator('.receipt-number').textContent())!.replace(/\D/g, '');
    await shot(page, 'team-payment-receipt');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.topbar')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await shot(page, 'team-payment-receipt-print');
    await page.emulateMedia({ media: 'screen' });

    // the outbox: one receipt for the manager naming every agent, one for each agent
    const mails = await outbox();
    const subject = `Receipt for your FreightDesk order #${orderNumber}`;
    const managerReceipts = mails.filter((m) => m.to === manager.email && m.subject === subject);
    expect(managerReceipts).toHaveLength(1);
    for (const a of agents) expect(managerReceipts[0]!.text).toContain(`${a.name} (${a.email}), 2 months, 10,000 AMD`);
    expect(managerReceipts[0]!.text).toContain('Total paid: 30,000 AMD');
    for (const a of agents) {
      const theirs = mails.filter((m) => m.to === a.email && m.subject === subject);
      expect(theirs).toHaveLength(1);
      expect(theirs[0]!.text).toContain('Mara Teamlead paid for your FreightDesk subscription.');
    }

    // an agent sees its own line of the order and of the receipt
    const agentPage = await browser.newPage();
    await loginAs(agentPage, agents[0]!, '/payment/');
    await expect(historyRows(agentPage)).toHaveCount(1);
    await expect(historyRows(agentPage).first()).toContainText('1 agent');
    await expect(historyRows(agentPage).first()).not.toContainText('Bella Newcomer');
    await historyRows(agentPage)
      .first()
      .getByRole('link', { name: /^Receipt of order/ })
      .click();
    await expect(agentPage.getByTestId('receipt')).toContainText('Ani Expired');
    await expect(agentPage.getByTestId('receipt')).not.toContainText('Cyrus Active');
    await expect(agentPage.getByTestId('receipt-totals')).toHaveCount(0);
    await shot(agentPage, 'team-payment-receipt-agent');
    await agentPage.close();
  });

  test('a user turns the reminders off on the Profile screen and it stays off', async ({ page }) => {
    const agent = await createUser('agent', { subscriptionDays: 20 });
    await loginAs(page, agent, '/profile/');
    const toggle = page.getByTestId('reminders-toggle').getByRole('checkbox');
    await expect(toggle).toBeChecked();
    await toggle.uncheck();
    await expect(page.getByTestId('toast').filter({ hasText: 'Reminders turned off' }).first()).toBeVisible();
    await shot(page, 'profile-reminders-off');
    await page.reload();
    await expect(page.getByTestId('reminders-toggle').getByRole('checkbox')).not.toBeChecked();
    expect((await apiCall('GET', `/api/user/${agent.id}`, undefined, agent.token)).body.remindersEnabled).toBe(false);
  });
});
