/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const addForm = (page: Page) => page.getByRole('form', { name: 'Add New MC' });
const item = (page: Page, name: string) => page.getByTestId('mc-item').filter({ has: page.getByRole('group', { name: `Line of ${name}` }) });
const lineButton = (page: Page, group: string, n: number) => page.getByRole('group', { name: group }).getByRole('button', { name: `Line ${n}`, exact: true });
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

describe('Lines', () => {
  it('manager: adds MCs with exclusive lines, moves lines, hides one in DAT and deletes one after confirming', async () => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    const page = await newPage(browser);
    await loginAs(page, manager, '/lines');
    await page.getByRole('heading', { name: 'Lines', exact: true }).waitFor();
    await page.getByText('No MCs yet. Add your first MC above.').waitFor();
    expect(await page.getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/help/lines');

    const form = addForm(page);
    await form.getByRole('button', { name: 'Add MC' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('Name is empty');
    await form.getByLabel('MC name').fill('Acme Trucking');
    await form.getByRole('button', { name: 'Add MC' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('Select line for new MC');
    await lineButton(page, 'Line for new MC', 1).click();
    await form.getByLabel('Email subject').fill('Load from Yerevan');
    await form.getByLabel('Email content').fill('Hello, is this load still available?');
    await form.getByRole('button', { name: 'Add MC' }).click();
    await toast(page, 'MC added');
    await item(page, 'Acme Trucking').waitFor();
    // the taken line is no longer offered for a new MC
    await expect(lineButton(page, 'Line for new MC', 1).isDisabled()).resolves.toBe(true);
    expect(await form.getByLabel('MC name').inputValue()).toBe('');

    await form.getByLabel('MC name').fill('Beta Freight');
    await lineButton(page, 'Line for new MC', 2).click();
    await form.getByRole('button', { name: 'Add MC' }).click();
    await item(page, 'Beta Freight').waitFor();

    // Beta cannot take line 1 while Acme holds it; move Acme to 3, then Beta takes 1
    await expect(lineButton(page, 'Line of Beta Freight', 1).isDisabled()).resolves.toBe(true);
    await lineButton(page, 'Line of Acme Trucking', 3).click();
    await lineButton(page, 'Line of Beta Freight', 1).click();
    expect(await lineButton(page, 'Line of Beta Freight', 2).getAttribute('aria-pressed')).toBe('false');
    await item(page, 'Beta Freight').getByLabel('Email subject').fill('Beta subject');
    await page.getByText('You have unsaved changes: press Save Settings.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Settings saved');

    await item(page, 'Beta Freight').getByRole('button', { name: 'Show Beta Freight in DAT' }).click();
    await toast(page, 'MC is hidden in DAT');
    await expect.poll(() => item(page, 'Beta Freight').getByRole('button', { name: 'Show Beta Freight in DAT' }).textContent()).toBe('Hidden');

    await page.reload();
    await item(page, 'Beta Freight').waitFor();
    expect(await lineButton(page, 'Line of Acme Trucking', 3).getAttribute('aria-pressed')).toBe('true');
    expect(await lineButton(page, 'Line of Beta Freight', 1).getAttribute('aria-pressed')).toBe('true');
    expect(await item(page, 'Beta Freight').getByLabel('Email subject').inputValue()).toBe('Beta subject');
    expect(await item(page, 'Acme Trucking').getByLabel('Email content').inputValue()).toBe('Hello, is this load still available?');
    await shot(page, 'lines-manager');

    // the agent uses Acme; deleting it takes the agent's setting too
    const acme = (await apiCall('GET', '/api/mcSettings', undefined, manager.token)).body.find((m: any) => m.name === 'Acme Trucking');
    expect((await apiCall('POST', '/api/mcSettings/add/', { parentMc: acme._id, lines: [4] }, agent.token)).status).toBe(200);
    await item(page, 'Acme Trucking').getByRole('button', { name: 'Delete Acme Trucking' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('Are you sure you want to delete Acme Trucking?');
    await shot(page, 'lines-delete-manager');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'MC deleted');
    await expect.poll(() => page.getByTestId('mc-item').count()).toBe(1);
    expect((await apiCall('GET', '/api/mcSettings', undefined, agent.token)).body).toEqual([]);
    await page.close();
  });

  it("agent: picks one of its manager's MCs with its own line and templates", async () => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    for (const [name, line] of [
      ['Acme Trucking', 1],
      ['Beta Freight', 2],
    ] as const)
      expect((await apiCall('POST', '/api/mcSettings/add/', { name, lines: [line] }, manager.token)).status).toBe(200);
    const page = await newPage(browser);
    await loginAs(page, agent, '/lines');
    const form = addForm(page);
    await form.getByRole('button', { name: 'Add MC' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('Select MC');
    await form.getByLabel('MC', { exact: true }).selectOption({ label: 'Beta Freight' });
    await form.getByRole('button', { name: 'Add MC' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('Select line for new MC');
    // the agent's lines are its own: line 1 is free although the manager uses it
    await lineButton(page, 'Line for new MC', 1).click();
    await form.getByLabel('Email subject').fill('From the agent');
    await form.getByRole('button', { name: 'Add MC' }).click();
    await item(page, 'Beta Freight').waitFor();
    // an MC already in the list is not offered again; the name is the manager's and not editable
    expect(await form.getByLabel('MC', { exact: true }).locator('option').allTextContents()).toEqual(['Select MC', 'Acme Trucking']);
    await item(page, 'Beta Freight').getByRole('heading', { name: 'Beta Freight' }).waitFor();
    await shot(page, 'lines-agent');
    const mine = (await apiCall('GET', '/api/mcSettings', undefined, agent.token)).body;
    expect(mine.map((m: any) => [m.name, m.lines, m.emailSubject])).toEqual([['Beta Freight', [1], 'From the agent']]);
    await page.close();
  });

  it('the help link opens the Lines help topic', async () => {
    const page = await newPage(browser);
    await page.goto('/help/lines');
    await page.getByRole('heading', { name: 'Lines and MCs' }).waitFor();
    expect(await page.getByRole('article').textContent()).toContain('Select line for new MC');
    await page.getByRole('navigation', { name: 'Help topics' }).getByRole('link', { name: 'Broker filters' }).click();
    await page.getByRole('heading', { name: 'Broker filters', level: 1 }).waitFor();
    await shot(page, 'help-filters');
    await page.goto('/help/nothing-here');
    await page.getByRole('heading', { name: 'Topic not found' }).waitFor();
    await page.close();
  });
});
