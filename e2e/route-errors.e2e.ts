/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { baseURL, createUser, fillLogin, loginAs, shot } from './helpers';

/**
 * Decision 0153: a screen whose code cannot be fetched (a tab open across a deploy) reloads
 * once, then says "A new version is available" with Reload, in the app's own look; a crafted
 * `next` lands on the role's default screen.
 */

const developerPage = (page: Page) => page.getByText(/Unexpected Application Error|Hey developer/);

test.describe('route errors', () => {
  test('chunk 404: one automatic reload, then "A new version is available: Reload"; Reload opens the screen once it is there', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/users');
    await expect(page.getByRole('heading', { name: 'My Team' })).toBeVisible();
    // the deploy that replaced My Filters' chunk: its old name answers 404
    await page.route('**/assets/my-filters-*.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }));
    let documentLoads = 0;
    page.on('request', (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) documentLoads += 1;
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Filters' }).click();

    const error = page.getByTestId('route-error');
    await expect(error.getByRole('heading', { name: 'A new version is available' })).toBeVisible();
    await expect(error.getByRole('heading', { name: 'A new version is available' })).toBeFocused();
    // exactly one automatic reload happened, and it did not loop
    expect(documentLoads).toBe(1);
    await page.waitForTimeout(1500);
    expect(documentLoads).toBe(1);
    await expect(developerPage(page)).toHaveCount(0);
    // the app's own look: the menu is still there
    await expect(page.getByTestId('user-email')).toBeVisible();
    await shot(page, 'route-error-new-version');

    await page.unroute('**/assets/my-filters-*.js');
    await error.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { name: 'My Filters' })).toBeVisible();
    await expect(page.getByTestId('route-error')).toHaveCount(0);
  });

  test('every crafted next lands on the role default screen', async ({ page }) => {
    const manager = await createUser('manager');
    const crafted = [
      '/.//evil.example',
      '/%2e//evil.example',
      '/%2E%2E//evil.example/x',
      '/a/..//evil.example',
      '/./\\evil.example',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ];
    for (const next of crafted) {
      await page.goto('/help');
      await page.evaluate(() => localStorage.removeItem('userData'));
      await page.goto(`/?next=${encodeURIComponent(next)}`);
      await fillLogin(page, manager.email);
      await page.waitForURL((url) => url.origin === baseURL() && url.pathname === '/users');
      await expect(page.getByRole('heading', { name: 'My Team' }), next).toBeVisible();
      await expect(developerPage(page)).toHaveCount(0);
    }
  });
});
