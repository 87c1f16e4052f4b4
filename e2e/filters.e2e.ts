/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, type E2EUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const table = (page: Page) => page.getByTestId('filters-table');
const row = (page: Page, name: string) => table(page).locator('tbody tr', { has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
const title = (page: Page) => table(page).locator('.table-title').textContent();
const names = (page: Page) => table(page).locator('tbody tr td:first-child').allTextContents();

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
  const res = await apiCall(
    'POST',
    '/api/broker/add',
    { comment: '', onlyCreator: false, allMC: false, usersList: [], onlyOnContacts: false, contacts: [], newUsers: false, isVisible: true, ...body },
    user.token,
  );
  expect(res.status).toBe(200);
  return res.body._id as string;
}

describe('Broker Filtering', () => {
  it('manager: creates with validation, verifies an agent filter, disables, deletes, searches and uses URL actions', async () => {
    const t = await team();
    const page = await newPage(browser);
    await loginAs(page, t.manager, '/companyFilters');
    await page.getByRole('heading', { name: 'Broker Filtering' }).waitFor();
    await table(page).getByText('No Filters').waitFor();
    expect(await title(page)).toBe('Filters List (Total: 0)');
    expect(await page.getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/help/filters');

    // create, with the spec's messages in order
    await page.getByRole('button', { name: 'Create Filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create Filter' });
    await modal.waitFor();
    const save = modal.getByRole('button', { name: 'Create Filter' });
    await save.click();
    expect(await modal.getByRole('alert').textContent()).toBe('Name is empty');
    await modal.getByLabel('Company name').fill('Swift Brokers');
    await save.click();
    expect(await modal.getByRole('alert').textContent()).toBe('Select the type');
    await modal.getByLabel('Type').selectOption({ label: 'Blocked' });
    await save.click();
    expect(await modal.getByRole('alert').textContent()).toBe('Select minimum 1 mc or All MC');
    await modal.getByRole('checkbox', { name: 'Acme MC' }).check();
    await modal.getByLabel('Comment').fill('Never pays on time');
    await modal.getByLabel('Phone or e-mail').fill('+1 555 0100');
    await modal.getByRole('button', { name: 'Add contact' }).click();
    // a contact left in the input is added on save
    await modal.getByLabel('Phone or e-mail').fill('ops@swift.example');
    await modal.getByRole('checkbox', { name: 'Only on these contacts' }).check();
    expect(await modal.getByRole('link', { name: 'Help: how filters work' }).getAttribute('href')).toBe('/help/filters');
    await shot(page, 'filters-modal-create-manager');
    await save.click();
    await toast(page, 'Filter added');
    await row(page, 'Swift Brokers').waitFor();
    const cells = await row(page, 'Swift Brokers').locator('td').allTextContents();
    expect(cells.slice(0, 8)).toEqual([
      'Swift Brokers',
      '+1 555 0100, ...',
      'Blocked',
      'Never pays on time',
      'Team and Me',
      'Acme MC',
      'Mona Manager',
      'Active',
    ]);
    const stored = (await apiCall('POST', '/api/broker', { allMC: true }, t.manager.token)).body[0];
    expect(stored).toMatchObject({ contacts: ['+1 555 0100', 'ops@swift.example'], onlyOnContacts: true, isVerified: true, newUsers: true });
    expect(stored.usersList.sort()).toEqual([t.manager.id, t.agent1.id, t.agent2.id].sort());

    // an agent's filter is unverified until the manager saves it
    await addFilter(t.agent1, { name: 'Agent Pick', type: t.types[1]!._id, mcList: [t.acme], onlyCreator: true });
    await addFilter(t.manager, { name: 'Old Broker', type: t.types[2]!._id, allMC: true, usersList: [t.manager.id] });
    await page.reload();
    await row(page, 'Agent Pick').waitFor();
    expect(await title(page)).toBe('Filters List (Total: 3)');
    // newest first
    expect(await names(page)).toEqual(['Old Broker', 'Agent Pick', 'Swift Brokers']);
    expect(await row(page, 'Agent Pick').locator('td').nth(7).textContent()).toBe('Unverified(Added by Agent)');
    expect(await row(page, 'Old Broker').locator('td').nth(5).textContent()).toBe('All MC');
    expect(await row(page, 'Old Broker').locator('td').nth(1).textContent()).toBe('All');
    expect(await row(page, 'Agent Pick').locator('td').nth(4).textContent()).toBe('Only Me');
    await shot(page, 'filters-company-manager');
    await row(page, 'Agent Pick').getByRole('button', { name: 'Edit Agent Pick' }).click();
    const update = page.getByRole('dialog', { name: 'Update Filter' });
    await update.getByTestId('unverified-note').waitFor();
    await shot(page, 'filters-modal-verify-manager');
    await update.getByRole('button', { name: 'Verify and Update Info' }).click();
    await toast(page, 'Filter verified and updated');
    await expect.poll(() => row(page, 'Agent Pick').locator('td').nth(7).textContent()).toBe('Active');
    expect(await row(page, 'Agent Pick').locator('td').nth(6).textContent()).toBe('Alex Agent');

    await row(page, 'Old Broker').getByRole('button', { name: 'Disable Old Broker' }).click();
    await toast(page, 'Filter disabled');
    await expect.poll(() => row(page, 'Old Broker').locator('td').nth(7).textContent()).toBe('Disabled');

    await row(page, 'Old Broker').getByRole('button', { name: 'Delete Old Broker' }).click();
    expect(await page.getByRole('dialog').textContent()).toContain('Are you sure you want to delete Old Broker?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Filter deleted');
    await expect.poll(() => title(page)).toBe('Filters List (Total: 2)');

    // the search panel: autocomplete, MC choice and its message, reset
    const panel = page.getByRole('form', { name: 'Search Filters' });
    await panel.getByLabel('Company name').fill('swi');
    await expect.poll(() => panel.locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['Swift Brokers']);
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => names(page)).toEqual(['Swift Brokers']);
    await panel.getByLabel('Company name').fill('');
    await panel.getByRole('checkbox', { name: 'For All MCs' }).uncheck();
    await panel.getByRole('button', { name: 'Search' }).click();
    expect(await panel.getByRole('alert').textContent()).toBe('Choose minimum 1 MC');
    await panel.getByRole('checkbox', { name: 'Beta MC' }).check();
    await panel.getByRole('button', { name: 'Search' }).click();
    await table(page).getByText('No Filters').waitFor();
    await panel.getByRole('checkbox', { name: 'Only Me' }).check();
    await panel.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => title(page)).toBe('Filters List (Total: 2)');
    expect(await panel.getByRole('checkbox', { name: 'Only Me' }).isChecked()).toBe(false);
    await shot(page, 'filters-search-manager');

    // URL actions
    await page.goto('/companyFilters/search/Agent');
    await expect.poll(() => names(page)).toEqual(['Agent Pick']);
    expect(await panel.getByLabel('Company name').inputValue()).toBe('Agent');
    await page.goto('/companyFilters/create/Big Broker LLC/(555) 123-4567');
    const fromUrl = page.getByRole('dialog', { name: 'Create Filter' });
    await fromUrl.waitFor();
    expect(await fromUrl.getByLabel('Company name').inputValue()).toBe('Big Broker LLC');
    expect(await fromUrl.getByRole('list', { name: 'Contacts' }).textContent()).toContain('555 1234567');
    await fromUrl.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/companyFilters');
    await page.close();
  });

  it('manager without MCs is sent to the Lines tab', async () => {
    const manager = await createUser('manager');
    const page = await newPage(browser);
    await loginAs(page, manager, '/companyFilters');
    await page.getByRole('button', { name: 'Create Filter' }).click();
    expect(await page.getByRole('alert').first().textContent()).toContain('Add your MC in Lines tab before creating filters');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await page.close();
  });

  it('agent: sees what applies to it, views team filters read-only and creates an unverified one', async () => {
    const t = await team();
    await addFilter(t.manager, { name: 'Team Rule', type: t.types[0]!._id, mcList: [t.acme], usersList: [t.agent1.id, t.agent2.id] });
    await addFilter(t.manager, { name: 'Beta Only', type: t.types[0]!._id, mcList: [t.beta], usersList: [t.agent1.id] });
    await addFilter(t.manager, { name: 'Not For Alex', type: t.types[1]!._id, allMC: true, usersList: [t.agent2.id] });
    await addFilter(t.agent2, { name: 'Bea Private', type: t.types[1]!._id, allMC: true, onlyCreator: true });
    const page = await newPage(browser);
    await loginAs(page, t.agent1, '/');
    await page.waitForURL('**/companyFilters');
    await row(page, 'Team Rule').waitFor();
    expect(await names(page)).toEqual(['Team Rule']);
    await expect(row(page, 'Team Rule').getByRole('button', { name: 'Edit Team Rule' }).count()).resolves.toBe(0);
    await row(page, 'Team Rule').getByRole('button', { name: 'View Team Rule' }).click();
    const view = page.getByRole('dialog', { name: 'View Filter' });
    await view.waitFor();
    await expect(view.getByLabel('Company name').isDisabled()).resolves.toBe(true);
    await expect(view.getByRole('button', { name: /Update|Create/ }).count()).resolves.toBe(0);
    await shot(page, 'filters-modal-view-agent');
    await view.locator('.dialog-footer').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Create Filter' }).click();
    const modal = page.getByRole('dialog', { name: 'Create Filter' });
    // an agent has one MC: it is picked already, and the filter is for itself by default
    expect(await modal.getByRole('checkbox', { name: 'Acme MC' }).isChecked()).toBe(true);
    expect(await modal.getByRole('radio', { name: 'Only Me' }).isChecked()).toBe(true);
    await modal.getByLabel('Company name').fill('My Own Broker');
    await modal.getByLabel('Type').selectOption({ label: 'Slow pay' });
    await modal.getByRole('button', { name: 'Create Filter' }).click();
    await toast(page, 'Filter added. It stays unverified until your manager verifies it');
    await row(page, 'My Own Broker').waitFor();
    expect(await row(page, 'My Own Broker').locator('td').nth(7).textContent()).toBe('Unverified(Added by Agent)');
    await expect(row(page, 'My Own Broker').getByRole('button', { name: 'Edit My Own Broker' }).count()).resolves.toBe(1);
    // the non-manager table filters by type
    await page.getByLabel('Filter Type', { exact: true }).selectOption('Slow pay');
    await expect.poll(() => names(page)).toEqual(['My Own Broker']);
    await page.getByLabel('Filter Type', { exact: true }).selectOption('');
    await shot(page, 'filters-company-agent');
    await page.close();
  });
});

describe('My Filters', () => {
  it('manager renames and recolours a type; the agent sees it and cannot edit', async () => {
    const t = await team();
    const page = await newPage(browser);
    await loginAs(page, t.manager, '/filters');
    await page.getByRole('heading', { name: 'My Filters' }).waitFor();
    const nameInput = page.getByLabel('Type name 5');
    expect(await nameInput.inputValue()).toBe('Note');
    await nameInput.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Type name is empty');
    await nameInput.fill('Watch list');
    await page.getByLabel('Colour of Watch list').fill('#7b1fa2');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Filter types saved');
    await page.reload();
    expect(await page.getByLabel('Type name 5').inputValue()).toBe('Watch list');
    await shot(page, 'filters-my-manager');
    await page.close();

    const agentPage = await newPage(browser);
    await loginAs(agentPage, t.agent1, '/filters');
    await agentPage.getByTestId('types-table').waitFor();
    await expect.poll(() => agentPage.getByTestId('type-name').allTextContents()).toEqual(['Blocked', 'Preferred', 'Slow pay', 'Check first', 'Watch list']);
    await expect(agentPage.locator('[data-testid="types-table"] input').count()).resolves.toBe(0);
    await expect(agentPage.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await shot(agentPage, 'filters-my-agent');
    await agentPage.close();
  });
});
