/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, fillLogin, loginAs, shot } from './helpers';

/**
 * Decision 0014: the screens' shared patterns, one journey each: deep links through login, unsaved
 * edits, Cancel focused in confirmations, titles, URL state, the small-screen menu and row
 * actions at common widths.
 */

test.describe('deep links survive login', () => {
  test('a logged-out link goes to login with ?next= and opens after login; a role that may not see it gets its default', async ({ page }) => {
    const manager = await createUser('manager');
    await apiCall('POST', '/api/mcSettings/add/', { name: 'Deep MC', lines: [1] }, manager.token);
    const link = '/companyFilters/create/Acme%20Logistics/ops@acme.example';
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/' && !!url.searchParams.get('next')?.startsWith('/companyFilters/create/Acme'));
    await expect(page).toHaveTitle('Login · FreightDesk');
    await shot(page, 'trust-login-next');
    await fillLogin(page, manager.email);
    await page.waitForURL('**/companyFilters/create/**');
    await expect(page.getByRole('dialog', { name: 'Create Filter' })).toBeVisible();
    await expect(page.getByRole('dialog').getByRole('textbox').first()).toHaveValue('Acme Logistics');

    // an agent opening a manager's screen lands on its own default
    const agent = await createUser('agent', { parentId: manager.id });
    await page.evaluate(() => localStorage.removeItem('userData'));
    await page.goto('/users?q=x');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('next') === '/users?q=x');
    await fillLogin(page, agent.email);
    await page.waitForURL('**/companyFilters');
  });

  test('a next that leaves the app is ignored', async ({ page }) => {
    const manager = await createUser('manager');
    for (const next of ['//evil.example/x', 'javascript:alert(1)', '/\\evil.example', 'https://evil.example/']) {
      await page.goto('/');
      await page.evaluate(() => localStorage.removeItem('userData'));
      await page.goto(`/?next=${encodeURIComponent(next)}`);
      await fillLogin(page, manager.email);
      await page.waitForURL((url) => url.origin === new URL(page.url()).origin && url.pathname === '/users');
    }
  });
});

const mcItem = (page: Page, name: string) => page.getByTestId('mc-item').filter({ has: page.getByRole('group', { name: `Line of ${name}` }) });

test.describe('unsaved edits are never lost silently', () => {
  test('Lines: leaving with edits asks Save / Discard / Stay; Show in DAT waits for Save like the rest; closing the tab asks too', async ({ page }) => {
    const manager = await createUser('manager');
    await apiCall('POST', '/api/mcSettings/add/', { name: 'Keep MC', lines: [1], emailSubject: 'Stored subject' }, manager.token);
    await loginAs(page, manager, '/lines');
    const subject = mcItem(page, 'Keep MC').getByLabel('Email subject');
    await expect(subject).toHaveValue('Stored subject');

    await subject.fill('Edited subject');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Stay' })).toBeFocused();
    await shot(page, 'trust-unsaved-dialog');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(/\/lines$/);
    await expect(subject).toHaveValue('Edited subject');

    // Discard leaves and throws the edit away
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL('**/profile/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lines' }).click();
    await page.waitForURL('**/lines');
    await expect(subject).toHaveValue('Stored subject');

    // Show in DAT is an edit too; Save in the dialog saves it with the subject and then leaves
    await mcItem(page, 'Keep MC').getByRole('button', { name: 'Show Keep MC in DAT' }).click();
    await subject.fill('Saved subject');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/profile/');
    const stored = await apiCall('GET', '/api/mcSettings/', undefined, manager.token);
    const mc = stored.body.find((m: { name: string }) => m.name === 'Keep MC');
    expect(mc.emailSubject).toBe('Saved subject');
    expect(mc.isVisible).toBe(false);

    // closing the tab with edits asks the browser's question
    await page.goto('/lines');
    await subject.fill('Not saved');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
  });
});

test.describe('unsaved edits on the other screens with Save', () => {
  test('Profile: a typed name asks before leaving and Save saves it; My Filters: Discard leaves the stored types', async ({ page }) => {
    const manager = await createUser('manager', { name: 'Before Name' });
    await loginAs(page, manager, '/profile/');
    await page.getByRole('button', { name: 'Update name' }).click();
    await page.getByRole('form', { name: 'Update name' }).getByLabel('New name').fill('After Name');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(dialog).toBeVisible();
    await shot(page, 'trust-unsaved-profile');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/payment/');
    const me = await apiCall('GET', `/api/user/${manager.id}`, undefined, manager.token);
    expect(me.body.name).toBe('After Name');

    await page.goto('/filters');
    const first = page.getByLabel('Type name 1');
    const stored = await first.inputValue();
    await first.fill('Not kept');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lines' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL('**/lines');
    const types = await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token);
    expect(types.body[0].typeName).toBe(stored);
  });

  test('the filter modal: Cancel with edits asks before discarding, and leaving the screen asks Save / Discard / Stay', async ({ page }) => {
    const manager = await createUser('manager');
    await apiCall('POST', '/api/mcSettings/add/', { name: 'Guard MC', lines: [1] }, manager.token);
    await loginAs(page, manager, '/filters');
    // in-app history: My Filters, then Broker Filtering from the menu
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Broker Filtering' }).click();
    await page.waitForURL('**/companyFilters');
    await page.getByRole('button', { name: 'Create Filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create Filter' });
    // untouched: Cancel closes at once
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();

    await page.getByRole('button', { name: 'Create Filter' }).click();
    await modal.getByLabel('Company name').fill('Guarded Brokerage');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expect(discard).toBeVisible();
    await expect(discard.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shot(page, 'trust-filter-modal-discard');
    await discard.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal.getByLabel('Company name')).toHaveValue('Guarded Brokerage');
    await page.keyboard.press('Escape');
    await expect(discard).toBeVisible();
    await discard.getByRole('button', { name: 'Cancel' }).click();

    // the modal covers the menu; Back while it holds edits asks: Stay keeps them
    await page.evaluate(() => history.back());
    const leave = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(leave).toBeVisible();
    await shot(page, 'trust-filter-modal-leave');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(/\/companyFilters$/);
    await expect(modal.getByLabel('Company name')).toHaveValue('Guarded Brokerage');

    await modal.getByRole('button', { name: 'Cancel' }).click();
    await discard.getByRole('button', { name: 'Discard' }).click();
    await expect(modal).toBeHidden();
    const list = await apiCall('POST', '/api/broker', { name: 'Guarded' }, manager.token);
    expect(JSON.stringify(list.body)).not.toContain('Guarded Brokerage');
  });
});

test.describe('safe defaults in dialogs', () => {
  test('a delete confirmation opens with Cancel focused, so Enter deletes nothing', async ({ page }) => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id, name: 'Keep Me Agent' });
    await loginAs(page, manager, '/users');
    await page.getByRole('button', { name: `Delete ${agent.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shot(page, 'trust-confirm-cancel-focused');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    const users = await apiCall('GET', '/api/user/', undefined, manager.token);
    expect(users.status).toBe(200);
    expect(JSON.stringify(users.body)).toContain(agent.email);
  });
});

const TITLES: [string, E2EUser['userType'], string][] = [
  ['/users', 'admin', 'All Users · FreightDesk'],
  ['/adminPayments', 'admin', 'Payments · FreightDesk'],
  ['/analytics', 'admin', 'Analytics · FreightDesk'],
  ['/links', 'admin', 'Links · FreightDesk'],
  ['/promoCodes/', 'admin', 'Promo Codes · FreightDesk'],
  ['/users', 'manager', 'My Team · FreightDesk'],
  ['/createUser/', 'manager', 'Add User · FreightDesk'],
  ['/profile/', 'manager', 'Profile · FreightDesk'],
  ['/payment/', 'manager', 'Payment · FreightDesk'],
  ['/companyFilters', 'manager', 'Broker Filtering · FreightDesk'],
  ['/filters', 'manager', 'My Filters · FreightDesk'],
  ['/callHistory', 'manager', 'Contact History · FreightDesk'],
  ['/lines', 'manager', 'Lines · FreightDesk'],
  ['/activeLoads', 'manager', 'Active Loads · FreightDesk'],
];

test.describe('every screen names itself in the tab', () => {
  test('titles by screen and role, and on public pages', async ({ page }) => {
    const users: Record<string, E2EUser> = { admin: await createUser('admin'), manager: await createUser('manager') };
    let current = '';
    for (const [path, role, title] of TITLES) {
      if (current !== role) {
        await loginAs(page, users[role]!, path);
        current = role;
      } else await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    await page.goto('/help/lines');
    await expect(page).toHaveTitle('Lines and MCs · Help · FreightDesk');
    await page.goto('/help');
    await expect(page).toHaveTitle('Help · FreightDesk');
  });
});

test.describe('state lives in the URL', () => {
  test('a table keeps search, sort, page and page size through reload and Back, and says how many rows the search leaves', async ({ page }) => {
    const manager = await createUser('manager');
    for (let i = 0; i < 12; i++) await createUser('agent', { parentId: manager.id, name: `Url Agent ${String(i).padStart(2, '0')}` });
    await createUser('agent', { parentId: manager.id, name: 'Other Person' });
    await loginAs(page, manager, '/users');
    const table = page.getByTestId('users-table');
    await table.getByRole('searchbox', { name: 'Search' }).fill('Url Agent');
    await table.getByRole('button', { name: /^Name/ }).click();
    await table.getByRole('button', { name: /^Name/ }).click();
    await table.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/q=Url\+Agent/);
    await expect(page).toHaveURL(/sort=-name/);
    await expect(page).toHaveURL(/page=2/);
    await expect(table.getByTestId('rows-shown')).toHaveText('Showing 12 of 13');
    const check = async () => {
      await expect(table.getByRole('searchbox', { name: 'Search' })).toHaveValue('Url Agent');
      await expect(table.getByText('Page 2 of 2')).toBeVisible();
      // descending by name: page 2 holds the two smallest
      await expect(table.locator('tbody tr')).toHaveCount(2);
      await expect(table.locator('tbody tr').first()).toContainText('Url Agent 01');
    };
    await check();
    await page.reload();
    await check();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile/');
    await page.goBack();
    await check();
    // a shared link in a new tab
    const url = page.url();
    const other = await page.context().newPage();
    await other.goto(url);
    await expect(other.getByTestId('users-table').getByText('Page 2 of 2')).toBeVisible();
    await other.getByTestId('users-table').getByLabel('Page size').selectOption('20');
    await expect(other).toHaveURL(/size=20/);
    await expect(other.getByTestId('users-table').getByText('Page 1 of 1')).toBeVisible();
    await other.close();
  });

  test('the Payment tab and the Broker Filtering search survive a reload', async ({ page }) => {
    const manager = await createUser('manager', { subscriptionDays: 20 });
    await loginAs(page, manager, '/payment/');
    await page.getByRole('tab', { name: 'Pay for Team' }).click();
    await expect(page).toHaveURL(/pay=team/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Pay for Team' })).toHaveAttribute('aria-selected', 'true');

    await page.goto('/companyFilters');
    const panel = page.getByRole('form', { name: 'Search Filters' });
    await panel.getByLabel('Company name').fill('Acme');
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/s\.name=Acme/);
    await page.reload();
    await expect(page.getByRole('form', { name: 'Search Filters' }).getByLabel('Company name')).toHaveValue('Acme');
  });
});

test.describe('small screens', () => {
  test('below 768 px the menu is a Menu button that opens the items as a sheet', async ({ page }) => {
    const manager = await createUser('manager');
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAs(page, manager, '/users');
    await expect(page.locator('.menu-wide')).toBeHidden();
    const button = page.getByRole('button', { name: 'Menu' });
    await expect(button).toBeVisible();
    await shot(page, 'trust-390-users');
    await button.click();
    const sheet = page.getByRole('dialog');
    await expect(sheet.getByRole('link', { name: 'Lines' })).toBeVisible();
    await shot(page, 'trust-390-menu-open');
    await sheet.getByRole('link', { name: 'Lines' }).click();
    await page.waitForURL('**/lines');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(page.locator('.menu-wide').getByRole('link', { name: 'Lines' })).toBeVisible();
  });
});

/** Every row's last cell (its actions) lies inside the viewport and inside its table's scroll box, unclipped. */
async function expectRowActionsInView(page: Page, tableTestId: string) {
  const table = page.getByTestId(tableTestId);
  // a loaded machine can take a while to answer the list
  await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  const problems = await table.evaluate((root) => {
    const out: string[] = [];
    const box = root.querySelector('.table-scroll')!.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    for (const control of Array.from(root.querySelectorAll('tbody tr td:last-child :is(button, a)'))) {
      const r = control.getBoundingClientRect();
      const label = control.getAttribute('aria-label') ?? control.textContent ?? '';
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1)
        out.push(`${label}: outside the table box (${Math.round(r.left)}-${Math.round(r.right)} vs ${Math.round(box.left)}-${Math.round(box.right)})`);
      if (r.right > width + 1) out.push(`${label}: past the viewport (${Math.round(r.right)} > ${width})`);
      const el = control as HTMLElement;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${label}: its text is clipped`);
      // nothing painted over its middle (a sticky cell must stay on top)
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (r.bottom <= window.innerHeight && r.top >= 0 && hit && !control.contains(hit)) out.push(`${label}: covered by ${hit.tagName}.${hit.className}`);
    }
    return out;
  });
  expect(problems, `${tableTestId} at ${page.viewportSize()?.width}px`).toEqual([]);
}

test.describe('nothing hidden at common widths', () => {
  test('row actions stay fully visible at 1280, 1366 and 390 px on every table with actions', async ({ page }) => {
    test.setTimeout(400_000);
    const admin = await createUser('admin');
    const manager = await createUser('manager', { name: 'Wide Manager' });
    await createUser('agent', {
      parentId: manager.id,
      name: 'An Agent With A Remarkably Long Name That Never Breaks Anywhere At All',
    });
    const mc = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Width MC', lines: [1] }, manager.token)).body.mcSetting._id as string;
    const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body;
    await apiCall(
      'POST',
      '/api/broker/add',
      {
        name: 'Averyveryverylongbrokernamewithoutanyspacesthatwouldpushthebuttonsoutofthetable LLC',
        type: types[0]._id,
        comment: 'x'.repeat(200),
        onlyCreator: false,
        allMC: false,
        mcList: [mc],
        usersList: [manager.id],
        onlyOnContacts: false,
        contacts: ['averyveryverylongcontactaddress.without.breaks@some-very-long-domain-name.example'],
        newUsers: false,
        isVisible: true,
      },
      manager.token,
    );
    // an ordinary row as the demo company has them: MC number (its FMCSA chip), a phone, a
    // sentence of comment, two MCs, disabled (Activate); with every column this made the
    // 13-column table 65 px wider than the page at 1366 px, and Status slid under Actions
    const mc2 = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Prairie Wind Trucking', lines: [2] }, manager.token)).body.mcSetting._id as string;
    const ordinary = await apiCall(
      'POST',
      '/api/broker/add',
      {
        name: 'Gulf Coast Freight Inc',
        mcNumber: '101393',
        type: types[1]._id,
        comment: 'Always asks for tracking every 2 hours',
        onlyCreator: false,
        allMC: false,
        mcList: [mc, mc2],
        usersList: [],
        onlyOnContacts: false,
        contacts: ['+1 963 555 1931', 'dispatch@gulfcoast.example'],
        newUsers: true,
        isVisible: true,
      },
      manager.token,
    );
    expect(ordinary.status).toBe(200);
    expect((await apiCall('PUT', '/api/broker/update/isactive', { filterId: ordinary.body._id }, manager.token)).status).toBe(200);
    await apiCall(
      'POST',
      '/api/activeLoad/add',
      { clientId: `w-${manager.id}`, brokerName: 'Wide Broker', origin: 'Atlanta, GA', dest: 'Miami, FL', loadDate: '2026-07-14', date: Date.now() },
      manager.token,
    );
    await apiCall('POST', '/api/payment/generateLink', { amount: 1, paymentType: 'idram' }, manager.token);
    await apiCall('POST', '/api/promocode/createRandomPublic', { effectType: 'freeMonths', effectValue: 1, generateAmount: 2 }, admin.token);
    await apiCall('POST', '/api/link/generate', { from: 'https://example.com/a/very/long/path/that/goes/on/and/on/and/on/without/end' }, admin.token);

    const screens: [E2EUser, string, string[]][] = [
      [admin, '/users', ['users-table']],
      [admin, '/adminPayments', ['all-payments']],
      [admin, '/promoCodes/', ['free-codes']],
      [admin, '/links', ['links-table']],
      [manager, '/users', ['users-table']],
      [manager, '/companyFilters', ['filters-table']],
      [manager, '/activeLoads', ['loads-table']],
      [manager, '/payment/', ['payment-history']],
    ];
    let current: E2EUser | null = null;
    for (const [user, path, tables] of screens) {
      for (const [width, height] of [
        [1280, 860],
        [1366, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        if (current !== user) {
          await loginAs(page, user, path);
          current = user;
        } else await page.goto(path);
        for (const id of tables) await expectRowActionsInView(page, id);
        // on a desktop every column is in view: a long unbroken name or address wraps in its cell
        if (width >= 1280)
          for (const id of tables) {
            const scroll = page.getByTestId(id).locator('.table-scroll');
            expect(await scroll.evaluate((el) => el.scrollWidth - el.clientWidth), `${id} scrolls sideways at ${width} px`).toBeLessThanOrEqual(1);
          }
        if (width !== 1280) await shot(page, `trust-${user.userType}-${path.replace(/\W+/g, '') || 'home'}-${width}`);
      }
    }
  });
});

test.describe('touched screens at 1366 and 390 px', () => {
  test('Contact History: the quick ranges never overlap the Users heading at 390 px; the other screens for a look', async ({ page }) => {
    test.setTimeout(240_000);
    const manager = await createUser('manager');
    await createUser('agent', { parentId: manager.id, name: 'History Agent' });
    let first = true;
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const path of ['/callHistory', '/lines', '/profile/', '/filters', '/payment/', '/createUser/']) {
        if (first) {
          await loginAs(page, manager, path);
          first = false;
        } else await page.goto(path);
        await expect(page.locator('main :is(h1, h2)').first()).toBeVisible();
        if (path === '/callHistory') {
          // the last quick range (on a second line at 390 px) sits above the Users box, not on it
          const last = await page.getByRole('button', { name: 'Last 40 days' }).boundingBox();
          const users = await page.getByRole('group', { name: 'Users' }).boundingBox();
          expect(!!last && !!users && last.y + last.height <= users.y, 'Last 40 days overlaps the Users box').toBe(true);
        }
        await shot(page, `trust-manager-${path.replace(/\W+/g, '')}-${width}`);
      }
    }
  });
});
