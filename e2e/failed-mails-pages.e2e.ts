/// <reference lib="dom" />
import type { Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, loginAs, shot } from './helpers';

/**
 * Failed Mails asks for a page at a time (GET /api/mail/failed/page, docs/decisions/0187-paged-fan-out.md).
 * The pages are the route's answers here: 52 failed mails need the provider to refuse 52 sends.
 */
const mail = (n: number) => ({
  _id: `mail-${n}`,
  kind: 'verify',
  to: `to${n}@pages.example`,
  subject: `Verify ${n}`,
  attempts: 5,
  lastError: 'refused',
  createdAt: new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString(),
  failedAt: new Date(Date.UTC(2026, 10, 2, 0, 60 - n)).toISOString(),
});

test('Failed Mails: Load more adds the next page; a page that fails is said and the shown mails stay', async ({ page }) => {
  const admin = await createUser('admin');
  let failNext = true;
  const cursors: (string | null)[] = [];
  await page.route(
    (url) => url.pathname === '/api/mail/failed/page',
    async (route: Route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      cursors.push(cursor);
      if (!cursor) return route.fulfill({ json: { items: Array.from({ length: 50 }, (_, i) => mail(i)), total: 52, next: 'after-50' } });
      if (failNext) return route.fulfill({ status: 500, json: { message: 'Something went wrong' } });
      return route.fulfill({ json: { items: [mail(50), mail(51)], total: 52, next: null } });
    },
  );
  await loginAs(page, admin, '/failedMails');
  await expect(page.getByTestId('failed-mail')).toHaveCount(50);
  await expect(page.getByText('52 failed mails (the newest 50 shown)')).toBeVisible();
  await page.getByRole('button', { name: 'Show 2 more' }).click();
  await expect(page.getByRole('alert')).toContainText('the list could not be loaded');
  await expect(page.getByTestId('failed-mail')).toHaveCount(50);
  await shot(page, 'failed-mails-page-failed');
  failNext = false;
  await page.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('failed-mail')).toHaveCount(52);
  await expect(page.getByText('52 failed mails', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /more$/ })).toHaveCount(0);
  expect(cursors).toContain('after-50');
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `failed-mails-pages-${width}`);
  }
});
