/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expectNoA11yViolations, expectNoHorizontalOverflow } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot } from './helpers';

/**
 * An order's life on the screens (docs/decisions/0020-order-expiry.md): an unpaid order expires
 * and reads Expired, the payer cancels a waiting one, the history's order number is its
 * receipt's, and a team order says how many agents for how long.
 */

const historyRows = (page: Page) => page.locator('[data-testid="payment-history"] tbody tr');
const rowOf = (page: Page, orderNumber: number) => historyRows(page).filter({ has: page.getByRole('cell', { name: String(orderNumber), exact: true }) });
const outbox = async () => (await apiCall('GET', '/api/dev/outbox')).body as { to: string; subject: string }[];

async function orderFor(user: E2EUser, body: object, path = '/api/payment/generateLink') {
  const res = await apiCall('POST', path, { paymentType: 'idram', ...body }, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const history = (await apiCall('GET', '/api/payment/paymentHistory', undefined, user.token)).body as { _id: string; globalIndex: number }[];
  return { id: res.body.orderId as string, number: history.find((p) => p._id === res.body.orderId)!.globalIndex };
}

/** Checks the screen at 1366 and 390 px: axe and no sideways scroll, with screenshots. */
async function bothWidths(page: Page, name: string) {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoA11yViolations(page, `${name} at ${width}`);
    await expectNoHorizontalOverflow(page, `${name} at ${width}`);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.describe('Payment orders: expiry, cancel, one number, team wording', () => {
  test('an order left on Idram until its time runs out reads Expired, on its result page and in Payment History', async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 10, name: 'Eve Expiry' });
    await loginAs(page, manager, '/payment/');
    await page.getByRole('button', { name: 'Pay with Idram' }).click();
    await page.waitForURL('**/api/payment/idram/simulator');
    await page.getByRole('button', { name: 'Let it expire' }).click();
    await page.waitForURL('**/paymentResult/expired');
    await expect(page.getByRole('heading', { name: 'Order Expired' })).toBeVisible();
    await expect(page.getByTestId('closed-text')).toContainText('not paid within 30 minutes');
    await bothWidths(page, 'order-expired-result');
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await expect(historyRows(page).first().locator('[data-status]')).toHaveText('Expired');
    await expect(
      historyRows(page)
        .first()
        .getByRole('button', { name: /Cancel order/ }),
    ).toHaveCount(0);
    // the order's own link, opened again, says the same
    const [history] = (await apiCall('GET', '/api/payment/paymentHistory', undefined, manager.token)).body as { _id: string }[];
    await page.goto(`/api/payment/idram/pay/${history!._id}`);
    await page.waitForURL('**/paymentResult/expired');
    await expect(page.getByRole('heading', { name: 'Order Expired' })).toBeVisible();
  });

  test('the payer cancels its waiting order: asked first, then it reads Canceled and Idram no longer takes it', async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 10, name: 'Carl Cancel' });
    const { id, number } = await orderFor(manager, { amount: 2 });
    await loginAs(page, manager, '/payment/');
    const row = rowOf(page, number);
    await expect(row.locator('[data-status]')).toHaveText('Waiting for payment');
    // the one date-and-time and time formats (web/lib/format.ts), in the browser's locale
    const listed0 = (await apiCall('GET', '/api/payment/paymentHistory', undefined, manager.token)).body as {
      _id: string;
      dateCreated: string;
      expiresAt: string;
    }[];
    const mine = listed0.find((p) => p._id === id)!;
    const [created, until] = await page.evaluate(
      ([a, b]) => [
        new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(a!)),
        new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(b!)),
      ],
      [mine.dateCreated, mine.expiresAt],
    );
    await expect(row.getByRole('cell', { name: created, exact: true })).toHaveCount(1);
    await expect(row).toContainText(`until ${until}`);
    await row.getByRole('button', { name: `Cancel order ${number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order #${number}?` });
    await expect(dialog).toBeVisible();
    // the safe choice has the focus
    await expect(dialog.getByRole('button', { name: 'Keep the order' })).toBeFocused();
    await bothWidths(page, 'order-cancel-dialog');
    await dialog.getByRole('button', { name: 'Keep the order' }).click();
    await expect(row.locator('[data-status]')).toHaveText('Waiting for payment');
    await row.getByRole('button', { name: `Cancel order ${number}` }).click();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(row.locator('[data-status]')).toHaveText('Canceled');
    await expect(row.getByRole('button', { name: /Cancel order/ })).toHaveCount(0);
    await bothWidths(page, 'order-canceled-history');
    // the server holds it: the order's own link now says Canceled
    const listed = (await apiCall('GET', '/api/payment/paymentHistory', undefined, manager.token)).body as { _id: string; status: string }[];
    expect(listed.find((p) => p._id === id)!.status).toBe('Canceled');
    await page.goto(`/api/payment/idram/pay/${id}`);
    await page.waitForURL('**/paymentResult/canceled');
    await expect(page.getByRole('heading', { name: 'Order Canceled' })).toBeVisible();
    // another user cannot cancel it
    const other = await createUser('manager');
    expect((await apiCall('POST', '/api/payment/cancelOrder', { orderId: id }, other.token)).status).toBe(404);
  });

  test("one order number: Payment History's # is its receipt's and its receipt mail's; a team order of 2 agents × 2 months says so", async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 40, name: 'Nora Number' });
    const agents = [
      await createUser('agent', { parentId: manager.id, subscriptionDays: 5, name: 'Ari One' }),
      await createUser('agent', { parentId: manager.id, subscriptionDays: 5, name: 'Bo Two' }),
    ];
    // a few orders first, so the caller's own count and the product-wide number differ
    for (let i = 0; i < 2; i++) await orderFor(manager, { amount: 1 });
    const team = await orderFor(manager, { userIds: agents.map((a) => a.id), amount: 2 }, '/api/payment/generateTeamLink');
    await loginAs(page, manager, '/payment/');
    const row = rowOf(page, team.number);
    await expect(row.getByTestId('bought')).toHaveText('2 agents × 2 months');
    // pay it through the simulator, from the order's own link
    await page.goto(`/api/payment/idram/pay/${team.id}`);
    await page.waitForURL('**/api/payment/idram/simulator');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL('**/paymentResult/confirmed');
    await page.getByRole('link', { name: 'Back to Payment' }).click();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'confirmed');
    await expect(row.getByTestId('bought')).toHaveText('2 agents × 2 months');
    await bothWidths(page, 'order-number-history');
    await row.getByRole('link', { name: `Receipt of order ${team.number}` }).click();
    await expect(page.getByText(`Order #${team.number}`, { exact: true })).toBeVisible();
    const subjects = (await outbox()).filter((m) => m.to === manager.email).map((m) => m.subject);
    expect(subjects).toContain(`Receipt for your FreightDesk order #${team.number}`);
    // an agent sees its own line: what it got
    await loginAs(page, agents[0]!, '/payment/');
    await expect(rowOf(page, team.number).getByTestId('bought')).toHaveText('2 months');
  });
});
