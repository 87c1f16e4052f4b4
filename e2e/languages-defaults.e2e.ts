/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginFromBrowser, shot } from './helpers';

/**
 * What the language walk (languages-screens.e2e.ts) found in English on Russian and Armenian
 * screens, each checked where it is (docs/decisions/0178-no-english-left.md): third-party
 * components' default labels, the browser's own date and file inputs, the sessions' descriptions
 * and the countries.
 */
async function signedIn(page: Page, user: E2EUser, language: 'ru' | 'hy', path: string) {
  expect((await apiCall('PUT', `/api/user/update/language/${user.id}`, { language }, user.token)).status).toBe(200);
  await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
  await loginFromBrowser(page, user, path);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

test.describe('no English default labels in Russian and Armenian', () => {
  test("the toasts' region and each toast are announced in the user's language", async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 30 });
    await signedIn(page, manager, 'ru', '/profile/');
    await expect(page.getByRole('region', { name: 'Уведомления (F8)' })).toBeAttached();
    await expect(page.getByRole('region', { name: /Notifications/ })).toHaveCount(0);
    await page.goto('/profile/');
    await page.getByLabel('Язык').selectOption('hy');
    await expect(page.getByRole('region', { name: 'Ծանուցումներ (F8)' })).toBeAttached();
    // radix reads a toast out with the provider's label before its text
    await expect(page.getByRole('status').filter({ hasText: 'Ծանուցում' }).first()).toBeAttached();
  });

  test("Profile's Active sessions name the client and the browser on its system in the user's language", async ({ page }) => {
    const agent = await createUser('agent', { subscriptionDays: 30 });
    await signedIn(page, agent, 'ru', '/profile/');
    const mine = page.getByTestId('session-row').filter({ hasText: 'Этот сеанс' });
    await expect(mine.locator('td').nth(0)).toContainText('Веб-приложение');
    await expect(mine.locator('td').nth(1)).toHaveText('Chrome, Linux');
    await expect(mine.getByRole('button')).toHaveAccessibleName(/^Завершить .*Веб-приложение, Chrome, Linux/);
    await expect(page.getByTestId('sessions-table')).not.toContainText(/Web app|Chrome on Linux/);
    await shot(page, 'languages-defaults-sessions-ru');
  });

  test("chart legends name their series only, with no English 'legend icon'", async ({ page }) => {
    const admin = await createUser('admin');
    await signedIn(page, admin, 'hy', '/analytics');
    const chart = page.getByTestId('daily-logins-chart');
    await expect(chart.locator('.chart-legend li')).toHaveText(['Մուտքեր', 'Օգտատերեր']);
    await expect(chart.locator('[aria-label*="legend icon"]')).toHaveCount(0);
    await expect(chart.locator('.chart-legend svg[aria-hidden="true"]')).toHaveCount(2);
  });

  test('the countries of registration and Add User are named in the language, Armenian too where Chromium has no Armenian', async ({ page }) => {
    expect(await page.evaluate(() => Intl.DisplayNames.supportedLocalesOf('hy'))).toEqual([]);
    await page.addInitScript(() => localStorage.setItem('language', 'hy'));
    await page.goto('/');
    await page.locator('.form-links button').last().click();
    const country = page.locator('#reg-country');
    await expect(country.locator('option[value="AM"]')).toHaveText('Հայաստան');
    await expect(country.locator('option[value="US"]')).toHaveText('Միացյալ Նահանգներ');
    const names = await country.locator('option').allTextContents();
    expect(names.length).toBeGreaterThan(240);
    expect(names.filter((n) => /\p{Script=Latin}/u.test(n))).toEqual([]);
    // in the language's alphabetical order
    expect(names.slice(1, 4)).toEqual([...names.slice(1, 4)].sort((a, b) => a.localeCompare(b, 'hy')));
    await shot(page, 'languages-defaults-register-hy');

    const admin = await createUser('admin');
    const other = await page.context().browser()!.newPage();
    await signedIn(other, admin, 'ru', '/createUser');
    await expect(other.locator('#cu-country option[value="AM"]')).toHaveText('Армения');
    await expect(other.locator('#cu-country option[value="DE"]')).toHaveText('Германия');
    await other.close();
  });

  test("date fields are typed and shown as the user's language writes days, with a calendar in it", async ({ page }) => {
    const admin = await createUser('admin');
    await signedIn(page, admin, 'ru', '/analytics');
    const from = page.getByLabel('С даты');
    await expect(from).toHaveAttribute('placeholder', 'дд.мм.гггг');
    await expect(from).toHaveValue(/^\d\d\.\d\d\.\d{4}$/);
    await from.fill('1.2.2026');
    await from.blur();
    await expect(from).toHaveValue('01.02.2026');
    await page.getByRole('button', { name: 'Выбрать в календаре' }).click();
    await expect(page.getByRole('button', { name: 'Следующий месяц' })).toBeVisible();
    await expect(page.getByRole('grid', { name: 'февраль 2026' })).toBeVisible();
    await expect(page.getByRole('button', { name: /1 февраля 2026 г\., выбрано$/ })).toBeVisible();
    await shot(page, 'languages-defaults-calendar-ru');
    await page.keyboard.press('Escape');

    // Armenian, which Chromium has no data for: numbers, and Armenian month names from the calendar's own locale
    const hyPage = await page.context().browser()!.newPage();
    await signedIn(hyPage, admin, 'hy', '/analytics');
    const hyFrom = hyPage.getByLabel('Սկսած');
    await expect(hyFrom).toHaveAttribute('placeholder', 'օօ.աա.տտտտ');
    await expect(hyFrom).toHaveValue(/^\d\d\.\d\d\.\d{4}$/);
    await hyPage.getByRole('button', { name: 'Ընտրել օրացույցում' }).click();
    await expect(hyPage.getByRole('button', { name: 'Հաջորդ ամիս' })).toBeVisible();
    await expect(hyPage.locator('.rdp-caption_label').first()).toHaveText(/^\p{Script=Armenian}+ \d{4}$/u);
    await shot(hyPage, 'languages-defaults-calendar-hy');
    await hyPage.close();
  });

  test('a link expiry is a day and a time in the language; the CSV import picks its file in the language', async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 30 });
    await signedIn(page, manager, 'ru', '/create');
    await page.getByRole('button', { name: /^Псевдоним, срок и лимит переходов/ }).click();
    const day = page.locator('#link-expires');
    await expect(day).toHaveAttribute('placeholder', 'дд.мм.гггг');
    const time = page.getByRole('textbox', { name: 'Действует до, время' });
    await expect(time).toHaveAttribute('placeholder', 'чч:мм');
    await shot(page, 'languages-defaults-link-expiry-ru');

    // the team's filter types exist (the import's preview, a read, does not make them: a team's first visit to its filters does)
    expect((await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).status).toBe(200);
    await page.goto('/companyFilters/import');
    await expect(page.getByRole('button', { name: /Выбрать файл$/ })).toBeVisible();
    await expect(page.getByText('Файл не выбран')).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /Выбрать файл$/ }).click();
    await (await chooser).setFiles({ name: 'brokers.csv', mimeType: 'text/csv', buffer: Buffer.from('name,type\nAcme,Blocked\n') });
    await expect(page.getByTestId('import-preview')).toBeVisible();
    await expect(page.getByText('Файл не выбран')).toHaveCount(0);
  });
});
