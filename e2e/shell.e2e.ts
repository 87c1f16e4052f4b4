/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, launch, loginAs, loginUI, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('login screen', () => {
  it('logs the seeded admin in, stores the session and lands on /users', async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await shot(page, 'login');
    await loginUI(page, 'admin@example.com', 'admin12345');
    await page.waitForURL('**/users');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
    expect(Object.keys(stored).sort()).toEqual(['isSubscriptionActive', 'token', 'userEmail', 'userId', 'userName', 'userType']);
    expect(stored.userType).toBe('admin');
    await expect(page.getByTestId('user-email').textContent()).resolves.toBe('admin@example.com');
    await page.close();
  });

  it('shows the server message for a wrong password', async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong email or password');
    await page.close();
  });
});

const MENUS: Record<string, { path: string; items: string[]; sub?: number | null }> = {
  admin: { path: '/users', items: ['Promo Codes', 'All Users', 'Analytics', 'Payments', 'Links', 'Logout'] },
  manager: {
    path: '/users',
    items: ['Profile', 'Payment', 'My Team', 'Broker Filtering', 'My Filters', 'Contact History', 'Lines', 'Links', 'Logout'],
  },
  agent: { path: '/companyFilters', items: ['Profile', 'Payment', 'Broker Filtering', 'My Filters', 'Contact History', 'Lines', 'Logout'] },
  director: { path: '/callHistory', items: ['Profile', 'Payment', 'Contact History', 'Logout'] },
  marketing: { path: '/promoCodes/', items: ['Profile', 'Promo Codes', 'Logout'] },
};

describe('menu and default route by role', () => {
  for (const [role, expected] of Object.entries(MENUS)) {
    it(`${role}: lands on ${expected.path} with its menu`, async () => {
      const user = await createUser(role as never);
      const page = await newPage(browser);
      await loginAs(page, user, '/');
      await page.waitForURL(`**${expected.path}`);
      const items = await page.getByRole('navigation', { name: 'Main' }).locator('a, button').allTextContents();
      expect(items).toEqual(expected.items);
      await shot(page, `menu-${role}`);
      await page.close();
    });
  }

  it('sends a user with an expired subscription to /payment/ and shows the banner only off the payment page', async () => {
    const manager = await createUser('manager', { subscriptionDays: -2 });
    const page = await newPage(browser);
    await loginAs(page, manager, '/companyFilters');
    await page.waitForURL('**/payment/');
    // the router keeps the previous screen up until the Payment screen has loaded
    await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
    const items = await page.getByRole('navigation', { name: 'Main' }).locator('a, button').allTextContents();
    expect(items).toEqual(['Profile', 'Payment', 'Logout']);
    expect(await page.getByTestId('subscription-banner').count()).toBe(0);
    await page.goto('/profile/');
    await expect(page.getByTestId('subscription-banner').textContent()).resolves.toContain('Your Subscription is Expired');
    await shot(page, 'banner-expired');
    await page.close();
  });

  it('warns with the days left when fewer than 7 remain', async () => {
    const agent = await createUser('agent', { subscriptionDays: 3.5 as never });
    const page = await newPage(browser);
    await loginAs(page, agent, '/profile/');
    await expect(page.getByTestId('subscription-banner').textContent()).resolves.toMatch(/3 days left\s*Pay Now/);
    await page.close();
  });
});

describe('session', () => {
  it('logs out, and a 401 from any call logs out without an error', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/profile/');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
    // the old token was ended by logout: a stored copy of it gets a 401 and a silent logout
    const stale = await apiCall('GET', '/api/subscription/status', undefined, manager.token);
    expect(stale.status).toBe(401);
    await page.close();
  });
});
