/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expectNoA11yViolations, expectNoHorizontalOverflow } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot } from './helpers';
import { everyScreen, seedTeam } from './team-seed';

/**
 * Rule 0155: axe-core (WCAG 2.0 and 2.1, A and AA) reports no violation on any screen of
 * any role, with data in the tables and with the dialogs open. A violation fails the test and
 * names the rule and the elements.
 */

let admin: E2EUser;
let director: E2EUser;
let manager: E2EUser;
let agent: E2EUser;
let marketing: E2EUser;
let linkId: string;

test.beforeAll(async () => {
  ({ admin, director, manager, agent, marketing, linkId } = await seedTeam());
});

/** Opens a screen, waits for its heading, and checks it. */
async function check(page: Page, path: string, label: string) {
  await page.goto(path);
  await expect(page.locator('h1').first()).toBeVisible();
  await expectNoA11yViolations(page, `${label} ${path}`);
}

const screens = () => everyScreen({ admin, director, manager, agent, marketing, linkId });

test.describe('axe-core: WCAG 2.1 A and AA on every screen', () => {
  for (const role of ['admin', 'manager', 'agent', 'director', 'marketing'] as const) {
    test(`${role}: every screen`, async ({ page }) => {
      const { user, paths } = screens()[role]!;
      await loginAs(page, user(), paths[0]);
      for (const path of paths) await check(page, path, role);
    });
  }

  for (const role of ['admin', 'manager', 'agent', 'director', 'marketing'] as const) {
    test(`${role}: every screen fits 390 px`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const { user, paths } = screens()[role]!;
      await loginAs(page, user(), paths[0]);
      for (const path of paths) {
        await page.goto(path);
        await expect(page.locator('h1').first()).toBeVisible();
        await expectNoHorizontalOverflow(page, `${role} ${path} at 390 px`);
        await shot(page, `390-${role}-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}`);
      }
    });
  }

  test('logged out: login, register, forgot password, help and the public pages', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expectNoA11yViolations(page, 'login');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: 'Manager Registration' })).toBeVisible();
    await expectNoA11yViolations(page, 'register');
    for (const path of ['/help', '/paymentResult/confirmed', '/paymentResult/failed', '/paymentResult/other', '/passwordRecovery/abc']) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await expectNoA11yViolations(page, path);
    }
  });

  test('dialogs open: filter modal, delete confirmation, menu sheet at 390 px', async ({ page }) => {
    await loginAs(page, manager, '/companyFilters');
    await page.getByRole('button', { name: 'Create Filter' }).click();
    await expect(page.getByRole('dialog', { name: 'Create Filter' })).toBeVisible();
    await expectNoA11yViolations(page, 'filter modal');
    await page.keyboard.press('Escape');
    await page.goto('/users');
    await page.getByRole('button', { name: 'Delete Alex Agent' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoA11yViolations(page, 'delete confirmation');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoA11yViolations(page, 'menu sheet');
  });
});

const focusedText = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el && el !== document.body ? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim()}` : 'body';
  });

test.describe('focus', () => {
  test('skip link first; a menu link moves the focus to the new screen heading', async ({ page }) => {
    await loginAs(page, manager, '/users');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Filters' }).click();
    await expect(page.getByRole('heading', { name: 'My Filters', level: 1 })).toBeFocused();
    // by keyboard too: Enter on a menu link, then the heading has the focus
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lines' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Lines', level: 1 })).toBeFocused();
  });

  test('390 px: the menu sheet opens on the current screen item, never on Logout; picking an item focuses its heading', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAs(page, manager, '/filters');
    await page.getByRole('button', { name: 'Menu' }).click();
    const sheet = page.getByRole('dialog');
    await expect(sheet.getByRole('link', { name: 'My Filters' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(sheet).toHaveCount(0);
    await expect(page).toHaveURL(/\/filters$/);
    await page.getByRole('button', { name: 'Menu' }).click();
    await sheet.getByRole('link', { name: 'Lines' }).click();
    await expect(page.getByRole('heading', { name: 'Lines', level: 1 })).toBeFocused();
  });

  test('a dialog returns the focus to what opened it; a deleted row gives it to the heading; a save never leaves it on body', async ({ page }) => {
    const spare = await createUser('agent', { name: 'Zed Spare', parentId: manager.id });
    await loginAs(page, manager, '/users');
    const del = page.getByRole('button', { name: `Delete ${spare.name}` });
    await del.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(del).toBeFocused();
    // Escape too
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(del).toBeFocused();
    // delete: the row and its button are gone, the focus goes to the heading
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('button', { name: `Delete ${spare.name}` })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'My Team', level: 1 })).toBeFocused();
    // the same when the row goes within 100 ms of the press (a fast delete and reload): the
    // press itself is no reason to leave the focus on body
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.textContent = 'Gone soon';
      document.querySelector('main')!.appendChild(button);
      button.focus();
      document.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      button.remove();
    });
    await expect(page.getByRole('heading', { name: 'My Team', level: 1 })).toBeFocused();

    // My Filters: Save by keyboard; afterwards the focus is somewhere in the page, not on body
    await page.goto('/filters');
    const name = page.getByLabel('Type name 1');
    await name.fill('Blocked now');
    const save = page.getByRole('button', { name: 'Save' });
    await save.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expect.poll(() => focusedText(page), { timeout: 5000 }).not.toBe('body');
    await page.waitForTimeout(2000);
    expect(await focusedText(page)).not.toBe('body');
  });
});

test.describe('wide screens', () => {
  test('All Users fits 1366 px without clipping, with long e-mails; the menu stays on one line at 1280 px with a long e-mail', async ({ page }) => {
    const longName = `a-very-long-mailbox-name-for-testing-${Date.now().toString(36)}`;
    const created = await apiCall('POST', '/api/dev/users', {
      userType: 'manager',
      email: `${longName}@logistics-company-example.example`,
      password: 'secret-pass',
      name: 'Maximilian Longname-Manager',
      subscriptionDays: 30,
    });
    expect(created.status).toBe(200);
    const long: E2EUser = {
      id: created.body._id,
      email: `${longName}@logistics-company-example.example`,
      name: 'Maximilian Longname-Manager',
      token: '',
      userType: 'manager',
    };
    await createUser('agent', { parentId: long.id, name: 'Agent With A Rather Long Name' });
    await page.setViewportSize({ width: 1366, height: 900 });
    // searched for: other files add users to the admin's list at the same time (300 at once in
    // users.e2e.ts), which can push a new row off the first page
    await loginAs(page, admin, `/users?q=${longName}`);
    await expect(page.getByTestId('users-table').getByText('Maximilian Longname-Manager')).toBeVisible();
    await expectNoHorizontalOverflow(page, 'All Users at 1366 px');
    // Subscription End is not under the sticky Action column
    const end = page.getByTestId('users-table').locator('thead th', { hasText: 'Subscription End' });
    const action = page.getByTestId('users-table').locator('thead th', { hasText: 'Action' });
    const [e, a] = [await end.boundingBox(), await action.boundingBox()];
    expect(e!.x + e!.width).toBeLessThanOrEqual(a!.x + 1);

    for (const width of [1280, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await loginAs(page, long, '/users');
      const tops = await page
        .locator('.menu-wide .menu-item')
        .evaluateAll((items) => [...new Set(items.map((i) => Math.round(i.getBoundingClientRect().top)))]);
      expect(tops, `menu items on one line at ${width} px`).toHaveLength(1);
      await expectNoHorizontalOverflow(page, `manager's screen at ${width} px`);
    }
  });
});

test.describe('forms say what is wrong where it is wrong', () => {
  test('Create user: the spec message beside its field, gone as soon as the field is corrected', async ({ page }) => {
    await loginAs(page, manager, '/createUser');
    const form = page.getByRole('form', { name: 'Add Agent' });
    await form.getByRole('button', { name: 'Create' }).click();
    const email = form.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toHaveText('Email is Empty');
    // beside the field: in the Email field's own box, and named by the input
    const emailError = form.locator('.field', { has: page.getByLabel('Email', { exact: true }) }).getByRole('alert');
    await expect(emailError).toHaveText('Email is Empty');
    await expect(email).toHaveAttribute('aria-describedby', (await emailError.getAttribute('id'))!);
    await email.fill('new.agent@e2e.example');
    // corrected: that message goes at once, and no new one appears on a field not tried yet;
    // the next submit shows the next of the spec's checks beside its own field
    await expect(emailError).toHaveCount(0);
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await form.getByRole('button', { name: 'Create' }).click();
    const passwordError = form.locator('.field', { has: page.getByLabel('Password', { exact: true }) }).getByRole('alert');
    await expect(passwordError).toHaveText('Password is Empty');
    await form.getByLabel('Password').fill('abc');
    // still wrong, by the next rule: the message follows the typing
    await expect(passwordError).toHaveText('Password must be minimum 6 symbols');
    await form.getByLabel('Password').fill('secret-pass');
    await expect(passwordError).toHaveCount(0);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.locator('.field', { has: page.getByLabel('Name', { exact: true }) }).getByRole('alert')).toHaveText('Name is Empty');
    await form.getByLabel('Name').fill('New Agent');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('Registration: Name is Empty beside Name, cleared by typing; Create link has a Create button; Reject says why it waits', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Register' }).click();
    const reg = page.getByRole('form', { name: 'Manager Registration' });
    await reg.getByRole('button', { name: 'Register' }).click();
    const name = reg.getByLabel('Name');
    await expect(reg.locator('.field', { has: page.getByLabel('Name', { exact: true }) }).getByRole('alert')).toHaveText('Name is Empty');
    await name.fill('Reg Manager');
    await expect(reg.locator('.field', { has: page.getByLabel('Name', { exact: true }) }).getByRole('alert')).toHaveCount(0);
    await expect(reg.getByRole('alert')).toHaveCount(0);
    await reg.getByRole('button', { name: 'Register' }).click();
    await expect(reg.locator('.field', { has: page.getByLabel('Email', { exact: true }) }).getByRole('alert')).toHaveText('Email is Empty');

    await loginAs(page, manager, '/create');
    const create = page.getByRole('form', { name: 'Create link' });
    await create.getByLabel('Enter Link').fill('https://example.com/by-button');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/detail/**');

    await page.goto('/companyFilters/queue');
    await page.getByRole('button', { name: 'Reject Agent Broker' }).click();
    const dialog = page.getByRole('dialog');
    const reject = dialog.getByRole('button', { name: 'Reject' });
    await expect(reject).toBeDisabled();
    await expect(reject).toHaveAccessibleDescription('Write the reason first: Reject needs it, and the agent sees it.');
    await dialog.getByLabel('Reason (the agent sees it)').fill('Duplicate');
    await expect(reject).toBeEnabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the filter modal keeps Create and Cancel in view at 900 px height and on a phone', async ({ page }) => {
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 700 },
    ]) {
      await page.setViewportSize(size);
      await loginAs(page, manager, '/companyFilters');
      await page.getByRole('button', { name: 'Create Filter' }).click();
      const modal = page.getByRole('dialog', { name: 'Create Filter' });
      await expect(modal.getByRole('button', { name: 'Create Filter' })).toBeInViewport({ ratio: 1 });
      await expect(modal.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
      await shot(page, `filter-modal-${size.width}x${size.height}`);
    }
  });
});
