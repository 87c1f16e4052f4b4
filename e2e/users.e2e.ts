/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginAs, PASSWORD, shot, usDay } from './helpers';

const rows = (page: Page) => page.locator('[data-testid="users-table"] tbody tr');
const column = (page: Page, n: number) => page.locator(`[data-testid="users-table"] tbody tr td:nth-child(${n})`);

test.describe('Users List', () => {
  test('admin: 300 users search, sort, filter by type and page', async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { name: 'Zed Manager' });
    // 300 users through the dev route, in parallel batches
    const tag = Date.now().toString(36);
    for (let i = 0; i < 300; i += 30) {
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          apiCall('POST', '/api/dev/users', {
            userType: 'agent',
            email: `bulk-${tag}-${i + j}@e2e.example`,
            password: PASSWORD,
            name: `Bulk ${String(i + j).padStart(3, '0')}`,
            parentId: manager.id,
          }),
        ),
      );
      // a refused creation shows its answer here rather than as a short count below
      expect(made.filter((m) => m.status !== 200).map((m) => `${m.status} ${JSON.stringify(m.body).slice(0, 200)}`)).toEqual([]);
    }
    await loginAs(page, admin, '/users');
    await expect(page.getByRole('heading', { name: 'All Users' })).toBeVisible();
    await expect(rows(page).first()).toBeVisible();
    await expect.poll(async () => Number(await page.getByTestId('total-agents').locator('strong').textContent())).toBeGreaterThanOrEqual(300);
    for (const col of ['Email', 'Name', 'Type', 'Parent', 'Country', 'Phone', 'Register Date', 'Subscription End', 'Action']) {
      await expect(page.locator('th', { hasText: col }).first()).toBeVisible();
    }
    await expect(rows(page)).toHaveCount(10);
    await expect(page.locator('.page-info')).toHaveText(/^Page 1 of (3[1-9]|[4-9]\d)$/);
    await shot(page, 'users-list-admin');
    await page.getByLabel('Page size').selectOption('50');
    await expect(rows(page)).toHaveCount(50);
    await expect(page.locator('.page-info')).toHaveText(/^Page 1 of \d+$/);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('.page-info')).toHaveText(/^Page 2 of/);

    await page.getByLabel('Search').fill(`bulk-${tag}-123@`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Bulk 123');
    await page.getByLabel('Search').fill(`bulk-${tag}`);
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(rows(page).first()).toContainText('Bulk 299');
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Filter Type').selectOption('manager');
    await expect(column(page, 3).first()).toBeVisible();
    await expect(column(page, 3).filter({ hasNotText: /^manager$/ })).toHaveCount(0);
    await page.getByLabel('Filter Type').selectOption('');
    await page.getByLabel('Filter Parent').selectOption(manager.email);
    await expect(page.locator('.page-info')).toHaveText('Page 1 of 6');
    await expect(column(page, 4).filter({ hasNotText: manager.email })).toHaveCount(0);
    await shot(page, 'users-list-admin-filtered');
  });

  test('admin: pages every company from the server, each user once in order; a failed page is said, not empty', async ({ page }) => {
    const admin = await createUser('admin');
    const tag = `pg${Date.now().toString(36)}`;
    // three companies (managers on their own: each a company, spread over the shards), 8 agents each
    const managers = [];
    for (let m = 0; m < 3; m++) {
      const made = await apiCall('POST', '/api/dev/users', { userType: 'manager', email: `m${m}-${tag}@e2e.example`, password: PASSWORD, name: `Boss ${m}` });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      managers.push(made.body);
    }
    for (let i = 0; i < 24; i++) {
      const made = await apiCall('POST', '/api/dev/users', {
        userType: 'agent',
        email: `a${String(i).padStart(2, '0')}-${tag}@e2e.example`,
        password: PASSWORD,
        name: `Agent ${String(i).padStart(2, '0')}`,
        parentId: managers[i % 3]!._id,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    const login = await apiCall('POST', '/api/auth/login', { email: admin.email, password: PASSWORD, clientType: 0 });
    const whole = (await apiCall<{ email: string }[]>('GET', '/api/user', undefined, login.body.accessToken)).body
      .map((u) => u.email)
      .filter((e) => e.includes(tag));
    expect(whole).toHaveLength(27);
    await loginAs(page, admin, `/users?q=${tag}`);
    const seen: string[] = [];
    const pageRows = async (p: number) => {
      await expect(page.locator('.page-info')).toHaveText(`Page ${p} of 3`);
      await expect(page.locator('[data-testid="users-table"] table')).toHaveAttribute('aria-busy', 'false');
      seen.push(...(await column(page, 1).allInnerTexts()).map((t) => t.replace(/\s/g, '')));
    };
    await pageRows(1);
    // a page that fails is shown as a failure, never as an empty list or as the page before
    const pageCall = (url: URL) => url.pathname === '/api/user/page';
    await page.route(pageCall, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Something went wrong' }) }),
    );
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('request-failed')).toBeVisible();
    await expect(page.getByText('No Users')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(0);
    await shot(page, 'users-list-admin-page-failed');
    await page.unroute(pageCall);
    await page.getByTestId('request-failed').getByRole('button').click();
    await pageRows(2);
    await page.getByRole('button', { name: 'Next' }).click();
    await pageRows(3);
    // the list's order (registration), each user once across the pages
    expect(seen).toEqual(whole);
    await expect(page.getByTestId('rows-shown')).toContainText('27');
    await shot(page, 'users-list-admin-paged');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.locator('.page-info')).toHaveText('Page 2 of 3');
    await expect(column(page, 1).first()).toHaveText(whole[10]!);
    // every column sorts on the server: Subscription End asks for that order from page 1
    const sorted = page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/user/page' && url.searchParams.get('sort') === 'subscriptionEnd' && !url.searchParams.has('cursor');
    });
    await page.getByRole('button', { name: /^Subscription End/ }).click();
    await sorted;
    await expect(page.locator('.page-info')).toHaveText('Page 1 of 3');
    await expect(page.locator('[data-testid="users-table"] table')).toHaveAttribute('aria-busy', 'false');
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `users-list-admin-paged-${width}`);
    }
  });

  test('manager: adds an agent, sees it with pending verification, deletes it after confirming', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/users');
    await expect(page.getByRole('heading', { name: 'My Team' })).toBeVisible();
    await expect(page.getByText('No Users')).toBeVisible();
    for (const col of ['Type', 'Parent', 'Country']) await expect(page.locator('th', { hasText: col })).toHaveCount(0);
    await expect(page.getByTestId('total-managers')).toHaveCount(0);

    await page.getByRole('link', { name: 'Add User' }).click();
    await expect(page.getByRole('heading', { name: 'Add Agent' })).toBeVisible();
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert')).toHaveText('Email is Empty');
    const email = `agent-${Date.now()}@e2e.example`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert')).toHaveText('Password must be minimum 6 symbols');
    await page.getByLabel('Password').fill('123456');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert')).toHaveText('Name is Empty');
    await page.getByLabel('Name').fill('Alice Agent');
    await shot(page, 'users-create-manager');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/users');
    const row = rows(page).filter({ hasText: email });
    await expect(row).toContainText('Email verification pending');
    await shot(page, 'users-list-manager');

    await row.getByRole('button', { name: 'Delete Alice Agent' }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete Alice Agent?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No Users')).toBeVisible();
    const list = await apiCall('GET', '/api/user', undefined, manager.token);
    expect(list.body).toEqual([]);
  });
});

test.describe('Create user', () => {
  test('admin: adds an agent under a chosen manager with a phone, and sees it in the list', async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { name: 'Parent Manager' });
    await loginAs(page, admin, '/createUser/');
    await expect(page.getByRole('heading', { name: 'Add new user' })).toBeVisible();
    await expect(page.getByLabel('Phone (optional)')).toBeDisabled();
    const email = `admin-made-${Date.now()}@e2e.example`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill('Made By Admin');
    await page.getByLabel('Password').fill('secret1');
    await page.getByLabel('Country').selectOption('AM');
    await expect(page.getByLabel('Phone (optional)')).toHaveValue('+374');
    await page.getByLabel('Phone (optional)').fill('+374 91');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong phone number');
    await page.getByLabel('Phone (optional)').fill('+374 91 234567');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert')).toHaveText('Select the parent manager');
    await page.getByLabel('Parent manager').selectOption({ label: `Parent Manager (${manager.email})` });
    await shot(page, 'users-create-admin');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/users');
    await page.getByLabel('Search').fill(email);
    const cells = rows(page).filter({ hasText: email }).locator('td');
    const expected = [email, 'Made By Admin', 'agent', manager.email, 'Armenia', '+374 91 234567'];
    for (const [i, text] of expected.entries()) await expect(cells.nth(i)).toHaveText(text);
    await expect(cells.nth(7)).toHaveText('Email verification pending');
  });
});

test.describe('Profile', () => {
  test('a user renames itself, and changes its own password and e-mail with its current password without being logged out', async ({ page }) => {
    const agent = await createUser('agent', { name: 'Old Name' });
    const sent: { url: string; body: any }[] = [];
    page.on('request', (r) => r.method() === 'PUT' && sent.push({ url: r.url(), body: r.postDataJSON() }));
    await loginAs(page, agent, '/profile/');
    const details = page.getByTestId('profile-details');
    await expect(details).toContainText('Next Payment Date');
    await page.getByRole('button', { name: 'Update name' }).click();
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('alert')).toHaveText('Name is Empty');
    // a zero-width space is refused on the screen, before anything is sent
    await page.getByLabel('New name').fill('New\u200BName');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('alert')).toHaveText('Name contains invisible characters');
    expect(sent).toEqual([]);
    await page.getByLabel('New name').fill('New Name');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(details).toContainText('New Name');

    await page.getByRole('button', { name: 'Update password' }).click();
    const passwordForm = page.getByRole('form', { name: 'Update password' });
    const savePassword = () => passwordForm.getByRole('button', { name: 'Save password' }).click();
    await passwordForm.getByLabel('New password', { exact: true }).fill('another-pass');
    await passwordForm.getByLabel('Repeat new password').fill('different');
    await savePassword();
    await expect(passwordForm.getByRole('alert')).toHaveText("Passwords don't match");
    await passwordForm.getByLabel('Repeat new password').fill('another-pass');
    await savePassword();
    await expect(passwordForm.getByRole('alert')).toHaveText('Current password is empty');
    await passwordForm.getByLabel('Current password').fill('not-my-password');
    await savePassword();
    await page.getByText('Current password is wrong').first().waitFor();
    await shot(page, 'profile-password-wrong-current');
    await passwordForm.getByLabel('Current password').fill(PASSWORD);
    await savePassword();
    await page.getByText('Password updated').first().waitFor();
    expect(sent.filter((r) => r.url.includes('/update/password/')).map((r) => r.body)).toEqual([
      { newPassword: 'another-pass', currentPassword: 'not-my-password' },
      { newPassword: 'another-pass', currentPassword: PASSWORD },
    ]);
    await page.reload();
    await page.getByTestId('profile-details').waitFor();
    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: PASSWORD, clientType: 0 })).status).toBe(400);
    expect((await apiCall('POST', '/api/auth/login', { email: agent.email, password: 'another-pass', clientType: 0 })).status).toBe(200);

    // another device's session, which the e-mail change ends
    const otherDevice = (await apiCall('POST', '/api/auth/login', { email: agent.email, password: 'another-pass', clientType: 0 })).body.accessToken;
    await page.getByRole('button', { name: 'Update e-mail' }).click();
    const emailForm = page.getByRole('form', { name: 'Update e-mail' });
    await emailForm.getByRole('button', { name: 'Save e-mail' }).click();
    await expect(emailForm.getByRole('alert')).toHaveText('Email is Empty');
    const moved = `moved-${Date.now()}@e2e.example`;
    await emailForm.getByLabel('New e-mail').fill(moved);
    await emailForm.getByRole('button', { name: 'Save e-mail' }).click();
    await expect(emailForm.getByRole('alert')).toHaveText('Current password is empty');
    await emailForm.getByLabel('Current password').fill('another-pass');
    await shot(page, 'profile-email-current-password');
    await emailForm.getByRole('button', { name: 'Save e-mail' }).click();
    await expect(page.getByTestId('profile-details')).toContainText(moved);
    await expect(page.getByTestId('profile-details')).toContainText('not verified');
    await expect(page.getByTestId('user-email')).toHaveText(moved);
    // still signed in here after a reload (the answer's fresh token), the other device is not
    await page.reload();
    await page.getByTestId('profile-details').waitFor();
    await expect(page.getByTestId('user-email')).toHaveText(moved);
    expect((await apiCall('GET', '/api/subscription/status', undefined, otherDevice)).status).toBe(401);
    const outbox = (await apiCall<{ to: string; subject: string }[]>('GET', '/api/dev/outbox')).body;
    expect(outbox.some((m) => m.to === agent.email && m.subject === 'Your FreightDesk e-mail address was changed')).toBe(true);
    await page.getByRole('button', { name: 'Resend email verification' }).click();
    await expect(page.getByText('Verification e-mail sent').first()).toBeVisible();
    await shot(page, 'profile-agent');
  });

  test("admin: changes another user's password and e-mail without a current password", async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { name: 'Managed Manager' });
    await loginAs(page, admin, `/profile/${manager.id}`);
    await page.getByRole('heading', { name: 'Profile: Managed Manager' }).waitFor();
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByRole('button', { name: 'Update e-mail' }).click();
    await expect(page.getByLabel('Current password')).toHaveCount(0);
    const passwordForm = page.getByRole('form', { name: 'Update password' });
    await passwordForm.getByLabel('New password', { exact: true }).fill('set-by-admin');
    await passwordForm.getByLabel('Repeat new password').fill('set-by-admin');
    await passwordForm.getByRole('button', { name: 'Save password' }).click();
    await page.getByText('Password updated').first().waitFor();
    const moved = `admin-moved-${Date.now()}@e2e.example`;
    await page.getByRole('form', { name: 'Update e-mail' }).getByLabel('New e-mail').fill(moved);
    await page.getByRole('form', { name: 'Update e-mail' }).getByRole('button', { name: 'Save e-mail' }).click();
    await expect(page.getByTestId('profile-details')).toContainText(moved);
    // the admin stays signed in as itself
    await expect(page.getByTestId('user-email')).toHaveText(admin.email);
    await shot(page, 'profile-admin-other-user');
    expect((await apiCall('POST', '/api/auth/login', { email: moved, password: 'set-by-admin', clientType: 0 })).status).toBe(200);
  });

  test('director: sees a manager of its team read-only', async ({ page }) => {
    const director = await createUser('director');
    const manager = await createUser('manager', { parentId: director.id, name: 'Team Manager' });
    await loginAs(page, director, `/profile/${manager.id}`);
    await expect(page.getByRole('heading', { name: 'Profile: Team Manager' })).toBeVisible();
    await expect(page.getByTestId('profile-details')).toContainText(manager.email);
    await expect(page.getByRole('button', { name: 'Update name' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Update password' })).toHaveCount(0);
    await shot(page, 'profile-director-readonly');
  });

  test('admin: starts and stops a trial, sets its end date, sees the children', async ({ page }) => {
    const admin = await createUser('admin');
    const manager = await createUser('manager', { subscriptionDays: null, isEmailVerified: false });
    const kid = await createUser('agent', { parentId: manager.id, name: 'Kid Agent' });
    const other = await createUser('manager', { name: 'Other Manager' });
    await loginAs(page, admin, `/profile/${manager.id}`);
    await expect(page.getByTestId('trial-state')).toContainText('Off');
    await expect(page.getByRole('button', { name: 'Resend email verification' })).toBeVisible();
    await expect(page.getByTestId('children').getByText('Kid Agent')).toBeVisible();
    await page.getByRole('button', { name: 'Start Trial' }).click();
    await expect(page.getByTestId('trial-state')).toContainText('On');
    await page.getByLabel('End date').fill('2031-05-06');
    await page.getByRole('button', { name: 'Save date' }).click();
    await expect(page.getByText('Trial end date updated').first()).toBeVisible();
    await expect
      .poll(async () => (await apiCall('GET', `/api/user/${manager.id}`, undefined, admin.token)).body.subscriptionEndDate)
      .toBe('2031-05-06T00:00:00.000Z');
    await shot(page, 'profile-admin');
    await page.getByRole('button', { name: 'Stop Trial' }).click();
    await expect(page.getByTestId('trial-state')).toContainText('Off');
    await expect(page.getByLabel('End date')).toHaveValue(usDay(new Date().toISOString().slice(0, 10)));

    // the child's own profile: move it to another manager
    await page.getByTestId('children').getByRole('link', { name: 'Kid Agent' }).click();
    await expect(page.getByRole('heading', { name: 'Profile: Kid Agent' })).toBeVisible();
    await page.getByLabel('Parent manager').selectOption({ label: `Other Manager (${other.email})` });
    await page.getByRole('button', { name: 'Change parent' }).click();
    await expect(page.getByText('Parent updated').first()).toBeVisible();
    await expect.poll(async () => (await apiCall('GET', `/api/user/${kid.id}`, undefined, admin.token)).body.parent?._id).toBe(other.id);
  });
});
