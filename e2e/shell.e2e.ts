/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, daysToYerevanEvening, fillLogin, loginAs, loginUI, shot } from './helpers';

const storedSession = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' }).locator('a, button');

test.describe('login screen', () => {
  test('logs the seeded admin in, stores the session and lands on /users', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await shot(page, 'login');
    await loginUI(page, 'admin@example.com', 'admin12345');
    await page.waitForURL('**/users');
    const stored = await storedSession(page);
    expect(Object.keys(stored).sort()).toEqual(['isSubscriptionActive', 'token', 'userEmail', 'userId', 'userName', 'userType']);
    expect(stored.userType).toBe('admin');
    await expect(page.getByTestId('user-email')).toHaveText('admin@example.com');
  });

  test('shows the server message for a wrong password', async ({ page }) => {
    await page.goto('/');
    await fillLogin(page, 'admin@example.com', 'wrong-password');
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password');
  });
});

const MENUS: Record<string, { path: string; items: string[]; sub?: number | null }> = {
  admin: { path: '/users', items: ['Promo Codes', 'All Users', 'Analytics', 'Payments', 'Failed Mails', 'Links', 'Logout'] },
  manager: {
    path: '/users',
    items: [
      'Profile',
      'Payment',
      'My Team',
      'Broker Filtering',
      'My Filters',
      'Verification Queue',
      'Contact History',
      'Active Loads',
      'Lines',
      'Links',
      'Logout',
    ],
  },
  agent: { path: '/companyFilters', items: ['Profile', 'Payment', 'Broker Filtering', 'My Filters', 'Contact History', 'Active Loads', 'Lines', 'Logout'] },
  director: { path: '/callHistory', items: ['Profile', 'Payment', 'Contact History', 'Logout'] },
  marketing: { path: '/promoCodes/', items: ['Profile', 'Promo Codes', 'Logout'] },
};

test.describe('menu and default route by role', () => {
  for (const [role, expected] of Object.entries(MENUS)) {
    test(`${role}: lands on ${expected.path} with its menu`, async ({ page }) => {
      const user = await createUser(role as never);
      await loginAs(page, user, '/');
      await page.waitForURL(`**${expected.path}`);
      await expect(menu(page)).toHaveText(expected.items);
      await shot(page, `menu-${role}`);
    });
  }

  test('sends a user with an expired subscription to /payment/ and shows the banner only off the payment page', async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: -2 });
    await loginAs(page, manager, '/companyFilters');
    await page.waitForURL('**/payment/');
    // the router keeps the previous screen up until the Payment screen has loaded
    await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
    await expect(menu(page)).toHaveText(['Profile', 'Payment', 'Logout']);
    await expect(page.getByTestId('subscription-banner')).toHaveCount(0);
    await page.goto('/profile/');
    await expect(page.getByTestId('subscription-banner')).toContainText('Your Subscription is Expired');
    await shot(page, 'banner-expired');
  });

  test.describe('on a Yerevan clock', () => {
    // the banner counts days on the browser's calendar; the end is set on Yerevan's
    test.use({ timezoneId: 'Asia/Yerevan' });
    test('warns with the days left when fewer than 7 remain', async ({ page }) => {
      const agent = await createUser('agent', { subscriptionDays: daysToYerevanEvening(3) });
      await loginAs(page, agent, '/profile/');
      await expect(page.getByTestId('subscription-banner')).toHaveText(/3 days left\s*Pay Now/);
    });
  });
});

test.describe('session', () => {
  test('logs out, and a 401 from any call logs out without an error', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/profile/');
    const pageToken = await page.evaluate(() => JSON.parse(localStorage.getItem('userData')!).token as string);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
    // this session's token was ended by logout: a stored copy of it gets a 401 and a silent logout
    const stale = await apiCall('GET', '/api/subscription/status', undefined, pageToken);
    expect(stale.status).toBe(401);
    // logout ends this session only: the user's other sign-ins (another browser, the load-board extension) go on
    expect((await apiCall('GET', '/api/subscription/status', undefined, manager.token)).status).toBe(200);
  });
});
