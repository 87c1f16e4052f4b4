/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { filterBody } from '../scripts/filter-body.mjs';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot, toast } from './helpers';

const table = (page: Page) => page.getByTestId('filters-table');
const row = (page: Page, name: string) => table(page).locator('tbody tr', { has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });
/**
 * The n-th of the spec's columns (Name, Contacts, Type, Comment, Users, MC, Creator, Status,
 * Actions): decision 0007 put a selection box before Name and the MC # and DOT # columns after it,
 * and decision 0021 the FMCSA status after those.
 */
const cell = (page: Page, name: string, n: number) =>
  row(page, name)
    .locator('td')
    .nth(n === 0 ? 1 : n + 4);
const title = (page: Page) => table(page).locator('.table-title');
const names = (page: Page) => table(page).locator('tbody tr td:nth-child(2)');

/** A manager with MCs Acme (line 1) and Beta (line 2) and two agents; agent 1 uses Acme. */
async function team() {
  const manager = await createUser('manager', { name: 'Mona Manager' });
  const agent1 = await createUser('agent', { parentId: manager.id, name: 'Alex Agent' });
  const agent2 = await createUser('agent', { parentId: manager.id, name: 'Bea Agent' });
  const acme = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Acme MC', lines: [1] }, manager.token)).body.mcSetting._id as string;
  const beta = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Beta MC', lines: [2] }, manager.token)).body.mcSetting._id as string;
  expect((await apiCall('POST', '/api/mcSettings/add/', { parentMc: acme, lines: [1] }, agent1.token)).status).toBe(200);
  const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body as { _id: string; typeName: string }[];
  return { manager, agent1, agent2, acme, beta, types };
}

async function addFilter(user: E2EUser, body: Record<string, unknown>) {
  const res = await apiCall('POST', '/api/broker/add', filterBody({ allMC: false, ...body }), user.token);
  expect(res.status).toBe(200);
  return res.body._id as string;
}

test.describe('Broker Filtering', () => {
  test('a filter\'s MC reads "…" while the MC lists load, never "Removed MC", then its name', async ({ page }) => {
    const t = await team();
    await addFilter(t.manager, { name: 'Slow Lists Brokerage', type: t.types[0]!._id, mcList: [t.beta], usersList: [t.agent1.id] });
    // the caller's and the team's MC lists answer 2 s late, after the filters
    await page.route(/\/api\/mcSettings(\/parentMcSettings)?$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    await loginAs(page, t.manager, '/companyFilters');
    const row = table(page).locator('tbody tr', { hasText: 'Slow Lists Brokerage' });
    await expect(row).toBeVisible();
    const mcCell = row.locator('td[data-label="MC"]');
    await expect(mcCell).toHaveText('…');
    await expect(row).not.toContainText('Removed MC');
    await expect(mcCell).toHaveText('Beta MC');
  });

  test('manager: creates with validation, verifies an agent filter, disables, deletes, searches and uses URL actions', async ({ page }) => {
    // about 220 steps: 69 s beside the worker suite under a load of 20, none of them waiting over 3 s
    test.setTimeout(120_000);
    const t = await team();
    await loginAs(page, t.manager, '/companyFilters');
    await expect(page.getByRole('heading', { name: 'Broker Filtering' })).toBeVisible();
    await expect(table(page).getByText('No Filters')).toBeVisible();
    await expect(title(page)).toHaveText('Filters List (Total: 0)');
    await expect(page.getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help/filters');

    // create, with the spec's messages in order
    await page.getByRole('button', { name: 'Create Filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create Filter' });
    await expect(modal).toBeVisible();
    const save = modal.getByRole('button', { name: 'Create Filter' });
    await save.click();
    await expect(modal.getByRole('alert')).toHaveText('Name is empty');
    await modal.getByLabel('Company name').fill('Swift Brokers');
    await save.click();
    await expect(modal.getByRole('alert')).toHaveText('Select the type');
    await modal.getByLabel('Type').selectOption({ label: 'Blocked' });
    await save.click();
    await expect(modal.getByRole('alert')).toHaveText('Select minimum 1 mc or All MC');
    await modal.getByRole('checkbox', { name: 'Acme MC' }).check();
    await modal.getByLabel('Comment').fill('Never pays on time');
    // a contact is a phone or an e-mail (rule 0138): "hello" is refused with a message
    await modal.getByLabel('Phone or e-mail').fill('hello');
    await modal.getByRole('button', { name: 'Add contact' }).click();
    await save.click();
    await expect(modal.getByRole('alert')).toHaveText('"hello" is not a phone number or an e-mail');
    await modal.getByRole('button', { name: 'Remove hello' }).click();
    await modal.getByLabel('Phone or e-mail').fill('(555) 010-0100');
    await modal.getByRole('button', { name: 'Add contact' }).click();
    // a contact left in the input is added on save
    await modal.getByLabel('Phone or e-mail').fill('ops@swift.example');
    await modal.getByRole('checkbox', { name: 'Only on these contacts' }).check();
    await expect(modal.getByRole('link', { name: 'Help: how filters work' })).toHaveAttribute('href', '/help/filters');
    await shot(page, 'filters-modal-create-manager');
    await save.click();
    await expect(toast(page, 'Filter added')).toBeVisible();
    const expected = ['Swift Brokers', '+1 555 010 0100, ...', 'Blocked', 'Never pays on time', 'Team and Me', 'Acme MC', 'Mona Manager', 'Active'];
    for (const [i, text] of expected.entries()) await expect(cell(page, 'Swift Brokers', i)).toHaveText(text);
    const stored = (await apiCall('POST', '/api/broker', { allMC: true }, t.manager.token)).body[0];
    expect(stored).toMatchObject({ contacts: ['+15550100100', 'ops@swift.example'], onlyOnContacts: true, isVerified: true, newUsers: true });
    expect(stored.usersList.sort()).toEqual([t.manager.id, t.agent1.id, t.agent2.id].sort());

    // an agent's filter is unverified until the manager saves it
    await addFilter(t.agent1, { name: 'Agent Pick', type: t.types[1]!._id, mcList: [t.acme], onlyCreator: true });
    await addFilter(t.manager, { name: 'Old Broker', type: t.types[2]!._id, allMC: true, usersList: [t.manager.id] });
    await page.reload();
    await expect(title(page)).toHaveText('Filters List (Total: 3)');
    // newest first
    await expect(names(page)).toHaveText(['Old Broker', 'Agent Pick', 'Swift Brokers']);
    await expect(cell(page, 'Agent Pick', 7)).toHaveText('Unverified(Added by Agent)');
    await expect(cell(page, 'Old Broker', 5)).toHaveText('All MC');
    await expect(cell(page, 'Old Broker', 1)).toHaveText('All');
    await expect(cell(page, 'Agent Pick', 4)).toHaveText('Only Me');
    await shot(page, 'filters-company-manager');
    await row(page, 'Agent Pick').getByRole('button', { name: 'Edit Agent Pick' }).click();
    const update = page.getByRole('dialog', { name: 'Update Filter' });
    await expect(update.getByTestId('unverified-note')).toBeVisible();
    await shot(page, 'filters-modal-verify-manager');
    await update.getByRole('button', { name: 'Verify and Update Info' }).click();
    await expect(toast(page, 'Filter verified and updated')).toBeVisible();
    await expect(cell(page, 'Agent Pick', 7)).toHaveText('Active');
    await expect(cell(page, 'Agent Pick', 6)).toHaveText('Alex Agent');

    await row(page, 'Old Broker').getByRole('button', { name: 'Disable Old Broker' }).click();
    await expect(toast(page, 'Filter disabled')).toBeVisible();
    await expect(cell(page, 'Old Broker', 7)).toHaveText('Disabled');

    await row(page, 'Old Broker').getByRole('button', { name: 'Delete Old Broker' }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete Old Broker?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Filter deleted')).toBeVisible();
    await expect(title(page)).toHaveText('Filters List (Total: 2)');

    // the search panel: autocomplete, MC choice and its message, reset
    const panel = page.getByRole('form', { name: 'Search Filters' });
    await panel.getByLabel('Company name').fill('swi');
    await expect.poll(() => panel.locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['Swift Brokers']);
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(names(page)).toHaveText(['Swift Brokers']);
    await panel.getByLabel('Company name').fill('');
    await panel.getByRole('checkbox', { name: 'For All MCs' }).uncheck();
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Choose minimum 1 MC');
    await panel.getByRole('checkbox', { name: 'Beta MC' }).check();
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(table(page).getByText('No Filters')).toBeVisible();
    await panel.getByRole('checkbox', { name: 'Only Me' }).check();
    await panel.getByRole('button', { name: 'Reset' }).click();
    await expect(title(page)).toHaveText('Filters List (Total: 2)');
    await expect(panel.getByRole('checkbox', { name: 'Only Me' })).not.toBeChecked();
    await shot(page, 'filters-search-manager');

    // URL actions
    await page.goto('/companyFilters/search/Agent');
    await expect(names(page)).toHaveText(['Agent Pick']);
    await expect(panel.getByLabel('Company name')).toHaveValue('Agent');
    await page.goto('/companyFilters/create/Big Broker LLC/(555) 123-4567');
    const fromUrl = page.getByRole('dialog', { name: 'Create Filter' });
    await expect(fromUrl.getByLabel('Company name')).toHaveValue('Big Broker LLC');
    await expect(fromUrl.getByRole('list', { name: 'Contacts' })).toContainText('+1 555 123 4567');
    await fromUrl.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/companyFilters');
  });

  test('manager without MCs is sent to the Lines tab', async ({ page }) => {
    const manager = await createUser('manager');
    await loginAs(page, manager, '/companyFilters');
    await page.getByRole('button', { name: 'Create Filter' }).click();
    await expect(page.getByRole('alert').first()).toContainText('Add your MC in Lines tab before creating filters');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('agent: sees what applies to it, views team filters read-only and creates an unverified one', async ({ page }) => {
    const t = await team();
    await addFilter(t.manager, { name: 'Team Rule', type: t.types[0]!._id, mcList: [t.acme], usersList: [t.agent1.id, t.agent2.id] });
    await addFilter(t.manager, { name: 'Beta Only', type: t.types[0]!._id, mcList: [t.beta], usersList: [t.agent1.id] });
    await addFilter(t.manager, { name: 'Not For Alex', type: t.types[1]!._id, allMC: true, usersList: [t.agent2.id] });
    await addFilter(t.agent2, { name: 'Bea Private', type: t.types[1]!._id, allMC: true, onlyCreator: true });
    await loginAs(page, t.agent1, '/');
    await page.waitForURL('**/companyFilters');
    await expect(names(page)).toHaveText(['Team Rule']);
    await expect(row(page, 'Team Rule').getByRole('button', { name: 'Edit Team Rule' })).toHaveCount(0);
    await row(page, 'Team Rule').getByRole('button', { name: 'View Team Rule' }).click();
    const view = page.getByRole('dialog', { name: 'View Filter' });
    await expect(view.getByLabel('Company name')).toBeDisabled();
    await expect(view.getByRole('button', { name: /Update|Create/ })).toHaveCount(0);
    await shot(page, 'filters-modal-view-agent');
    await view.locator('.dialog-footer').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Create Filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create Filter' });
    // an agent has one MC: it is picked already, and the filter is for itself by default
    await expect(modal.getByRole('checkbox', { name: 'Acme MC' })).toBeChecked();
    await expect(modal.getByRole('radio', { name: 'Only Me' })).toBeChecked();
    await modal.getByLabel('Company name').fill('My Own Broker');
    await modal.getByLabel('Type').selectOption({ label: 'Slow pay' });
    await modal.getByRole('button', { name: 'Create Filter' }).click();
    await expect(toast(page, 'Filter added. It stays unverified until your manager verifies it')).toBeVisible();
    await expect(cell(page, 'My Own Broker', 7)).toHaveText('Unverified(Added by Agent)');
    await expect(row(page, 'My Own Broker').getByRole('button', { name: 'Edit My Own Broker' })).toHaveCount(1);
    // the non-manager table filters by type
    await page.getByLabel('Filter Type', { exact: true }).selectOption('Slow pay');
    await expect(names(page)).toHaveText(['My Own Broker']);
    await page.getByLabel('Filter Type', { exact: true }).selectOption('');
    await shot(page, 'filters-company-agent');
  });
});

test.describe('My Filters', () => {
  test('manager renames and recolours a type; the agent sees it and cannot edit', async ({ page, browser }) => {
    const t = await team();
    await loginAs(page, t.manager, '/filters');
    await expect(page.getByRole('heading', { name: 'My Filters' })).toBeVisible();
    const nameInput = page.getByLabel('Type name 5');
    await expect(nameInput).toHaveValue('Note');
    await nameInput.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText('Type name is empty');
    await nameInput.fill('Watch list');
    await page.getByLabel('Colour of Watch list').fill('#7b1fa2');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Filter types saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Type name 5')).toHaveValue('Watch list');
    await shot(page, 'filters-my-manager');

    const agentPage = await browser.newPage();
    await loginAs(agentPage, t.agent1, '/filters');
    await expect(agentPage.getByTestId('type-name')).toHaveText(['Blocked', 'Preferred', 'Slow pay', 'Check first', 'Watch list']);
    await expect(agentPage.locator('[data-testid="types-table"] input')).toHaveCount(0);
    await expect(agentPage.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await shot(agentPage, 'filters-my-agent');
    await agentPage.close();
  });
});
