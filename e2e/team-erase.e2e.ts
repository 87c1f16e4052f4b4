/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot, toast } from './helpers';

const DAY = 86_400_000;
const ARCHIVE_CRON = '30 3 * * *';

/** A UTC month past the 400-day hot window (the archive job moves it to R2), and its Contact History view. */
const old = new Date(Date.now() - 470 * DAY);
const monthStart = Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 1);
const LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(monthStart);
const day = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
const MONTH_VIEW = `/callHistory?from=${day(new Date(monthStart))}&to=${day(new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 0)))}&shown=1`;
const RECENT_VIEW = `/callHistory?from=${day(new Date(Date.now() - 3 * DAY))}&to=${day(new Date(Date.now() + DAY))}&shown=1`;

const contacts = (n: number, broker: string, from: number, step: number) =>
  Array.from({ length: n }, (_, i) => ({ callDate: from + i * step, brokerName: `${broker} ${i}`, kind: 'call', contact: '+13125550142' }));
const oldContacts = (n: number, broker: string) => contacts(n, broker, monthStart + 3 * DAY, 7 * 3_600_000);
const recentContacts = (n: number, broker: string) => contacts(n, broker, Date.now() - 30 * 3_600_000, 3_600_000);

async function addHistory(user: E2EUser, list: ReturnType<typeof contacts>) {
  expect((await apiCall('POST', '/api/dev/history', { userId: user.id, contacts: list })).status).toBe(201);
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Please confirm' });
const eraseBox = (page: Page) => dialog(page).getByRole('checkbox', { name: "Also erase this team's Contact History, archived months included" });

/** Opens the delete confirmation of a user found by the list's search. */
async function openDelete(page: Page, user: E2EUser) {
  await page.getByLabel('Search').fill(user.email);
  await page.getByRole('button', { name: `Delete ${user.name}` }).click();
  await expect(dialog(page)).toContainText(`Are you sure you want to delete ${user.name}?`);
}

test.describe('Users List: the admin erases a deleted team (decision 0185)', () => {
  test('a manager deleted with its history: its contacts and archive are gone, another team keeps its own', async ({ page }) => {
    test.setTimeout(240_000);
    const tag = Date.now().toString(36);
    const admin = await createUser('admin');
    const director = await createUser('director', { name: `Dora ${tag}` });
    const gone = await createUser('manager', { parentId: director.id, name: `Gone Manager ${tag}` });
    const kept = await createUser('manager', { parentId: director.id, name: `Kept Manager ${tag}` });
    const agent = await createUser('agent', { parentId: gone.id, name: `Moved Agent ${tag}` });
    const busy = await createUser('manager', { parentId: director.id, name: `Busy Manager ${tag}` });
    await createUser('agent', { parentId: busy.id, name: `Busy Agent ${tag}` });
    const turned = await createUser('manager', { parentId: director.id, name: `Turned Manager ${tag}` });

    // both teams: contacts of this week and of a month the nightly job archives
    await addHistory(gone, [...recentContacts(3, 'Gone Freight'), ...oldContacts(6, 'Gone Freight')]);
    await addHistory(agent, [...recentContacts(5, 'Agent Brokers'), ...oldContacts(4, 'Agent Brokers')]);
    await addHistory(kept, [...recentContacts(4, 'Kept Freight'), ...oldContacts(5, 'Kept Freight')]);
    expect((await apiCall('GET', `/api/dev/scheduled?cron=${encodeURIComponent(ARCHIVE_CRON)}`)).status).toBe(200);
    // the agent joins the other team: the contacts it logged stay its old team's, and it still sees them
    expect((await apiCall('PUT', `/api/user/update/parent/${agent.id}`, { newParent: kept.id }, admin.token)).status).toBe(200);
    await loginAs(page, agent, RECENT_VIEW);
    await expect(page.getByTestId('history-total')).toHaveText('Total: 5');
    await page.goto(MONTH_VIEW);
    await expect(page.getByTestId('archived-in-range')).toContainText(`${LABEL} is archived: 4 of your contacts are not in this list.`);

    // a manager deleting an agent has no such choice
    await loginAs(page, kept, '/users');
    await page.getByRole('button', { name: `Delete ${agent.name}` }).click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('checkbox')).toHaveCount(0);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();

    // the admin: the choice is off, and ticking it says what is lost and renames the button
    await page.setViewportSize({ width: 1366, height: 900 });
    await loginAs(page, admin, '/users');
    await openDelete(page, gone);
    await expect(eraseBox(page)).not.toBeChecked();
    await expect(dialog(page).getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    await eraseBox(page).check();
    const warning = dialog(page).getByTestId('erase-warning');
    await expect(warning).toHaveText(
      `Every call and e-mail ${gone.name}'s team logged, archived months included, will be erased for good. This cannot be undone: the history cannot be restored or exported afterwards. Payments are kept.`,
    );
    await expect(eraseBox(page)).toHaveAccessibleDescription(/will be erased for good/);
    await expect(dialog(page).getByRole('button', { name: 'Cancel' })).toBeVisible();
    await shot(page, 'team-erase-dialog-1366');
    await expectNoA11yViolations(page, 'team erase dialog 1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(warning).toBeVisible();
    await expect(dialog(page).getByRole('button', { name: 'Delete and erase history' })).toBeInViewport();
    await shot(page, 'team-erase-dialog-390');
    await expectNoA11yViolations(page, 'team erase dialog 390');
    await page.setViewportSize({ width: 1366, height: 900 });

    // while the company moves the server answers 503 (worker/history/archive.test.ts): said in the dialog, which stays for a retry
    const deleteCall = /\/api\/user\/?$/;
    await page.route(deleteCall, (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 503,
            headers: { 'retry-after': '30' },
            contentType: 'application/json',
            body: JSON.stringify({
              message: "This company's data is being moved to another database. Please try again in a minute.",
              code: 'common.companyMoving',
            }),
          })
        : route.fallback(),
    );
    await dialog(page).getByRole('button', { name: 'Delete and erase history' }).click();
    await expect(dialog(page).getByRole('alert')).toHaveText("This company's data is being moved to another database. Please try again in a minute.");
    await expect(eraseBox(page)).toBeChecked();
    await shot(page, 'team-erase-moving');
    await page.unroute(deleteCall);

    // the retry erases
    await dialog(page).getByRole('button', { name: 'Delete and erase history' }).click();
    await expect(toast(page, `${gone.name} has been deleted and the team's Contact History erased`)).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Delete ${gone.name}` })).toHaveCount(0);

    // the server's refusals are said in the dialog: a manager with agents, one that is no manager any more
    await openDelete(page, busy);
    await eraseBox(page).check();
    await dialog(page).getByRole('button', { name: 'Delete and erase history' }).click();
    await expect(dialog(page).getByRole('alert')).toHaveText('This manager still has agents: move or delete them first');
    await shot(page, 'team-erase-refused');
    await expectNoA11yViolations(page, 'team erase refused');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Search').fill(turned.email);
    await expect(page.getByRole('button', { name: `Delete ${turned.name}` })).toBeVisible();
    // made an agent meanwhile, in another tab
    const changed = await apiCall('PUT', `/api/user/update/userType/${turned.id}`, { userNewType: 'agent', newParent: kept.id }, admin.token);
    expect(changed.status).toBe(200);
    await openDelete(page, turned);
    await eraseBox(page).check();
    await dialog(page).getByRole('button', { name: 'Delete and erase history' }).click();
    await expect(dialog(page).getByRole('alert')).toHaveText('Choose a manager');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    // the next opening starts over: unticked, no error
    await openDelete(page, busy);
    await expect(eraseBox(page)).not.toBeChecked();
    await expect(dialog(page).getByRole('alert')).toHaveCount(0);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();

    // the erased team's contacts are gone, this week's and the archived month's
    await loginAs(page, agent, RECENT_VIEW);
    await expect(page.getByText('No contacts in this range')).toBeVisible();
    await expect(page.getByTestId('history-total')).toHaveText('Total: 0');
    await page.goto(MONTH_VIEW);
    await expect(page.getByText('No contacts in this range')).toBeVisible();
    await expect(page.getByTestId('archived-in-range')).toHaveCount(0);
    // the other team keeps its own
    await loginAs(page, kept, RECENT_VIEW);
    await expect(page.getByTestId('history-total')).toHaveText('Total: 4');
    await page.goto(MONTH_VIEW);
    await expect(page.getByTestId('archived-in-range')).toContainText(`${LABEL} is archived: its 5 contacts are not in this list.`);
    await expect(page.getByTestId('archived-months')).toContainText('5 contacts · archived');
  });
});
