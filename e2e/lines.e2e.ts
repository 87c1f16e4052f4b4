/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, loginAs, shot, toast } from './helpers';

const addForm = (page: Page) => page.getByRole('form', { name: 'Add New MC' });
const item = (page: Page, name: string) => page.getByTestId('mc-item').filter({ has: page.getByRole('group', { name: `Line of ${name}` }) });
const lineButton = (page: Page, group: string, n: number) => page.getByRole('group', { name: group }).getByRole('button', { name: `Line ${n}`, exact: true });

test.describe('Lines', () => {
  test('manager: adds MCs with exclusive lines, moves lines, hides one in DAT and deletes one after confirming', async ({ page }) => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    await loginAs(page, manager, '/lines');
    await expect(page.getByRole('heading', { name: 'Lines', exact: true })).toBeVisible();
    await expect(page.getByText('No MCs yet. Add your first MC above.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help/lines');

    const form = addForm(page);
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(form.getByRole('alert')).toHaveText('Name is empty');
    await form.getByLabel('MC name').fill('Acme Trucking');
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(form.getByRole('alert')).toHaveText('Select line for new MC');
    await lineButton(page, 'Line for new MC', 1).click();
    await form.getByLabel('Email subject').fill('Load from Yerevan');
    await form.getByLabel('Email content').fill('Hello, is this load still available?');
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(toast(page, 'MC added')).toBeVisible();
    await expect(item(page, 'Acme Trucking')).toBeVisible();
    // the taken line is no longer offered for a new MC
    await expect(lineButton(page, 'Line for new MC', 1)).toBeDisabled();
    await expect(form.getByLabel('MC name')).toHaveValue('');

    await form.getByLabel('MC name').fill('Beta Freight');
    await lineButton(page, 'Line for new MC', 2).click();
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(item(page, 'Beta Freight')).toBeVisible();

    // Beta cannot take line 1 while Acme holds it; move Acme to 3, then Beta takes 1
    await expect(lineButton(page, 'Line of Beta Freight', 1)).toBeDisabled();
    await lineButton(page, 'Line of Acme Trucking', 3).click();
    await lineButton(page, 'Line of Beta Freight', 1).click();
    await expect(lineButton(page, 'Line of Beta Freight', 2)).toHaveAttribute('aria-pressed', 'false');
    await item(page, 'Beta Freight').getByLabel('Email subject').fill('Beta subject');
    await expect(page.getByText('You have unsaved changes: press Save Settings.')).toBeVisible();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Settings saved')).toBeVisible();

    // Show in DAT is saved by Save Settings with the rest (one saving model)
    await item(page, 'Beta Freight').getByRole('button', { name: 'Show Beta Freight in DAT' }).click();
    await expect(item(page, 'Beta Freight').getByRole('button', { name: 'Show Beta Freight in DAT' })).toHaveText('Hidden');
    await expect(page.getByText('You have unsaved changes: press Save Settings.')).toBeVisible();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Settings saved')).toBeVisible();
    await expect(page.getByText('You have unsaved changes: press Save Settings.')).toHaveCount(0);

    await page.reload();
    await expect(lineButton(page, 'Line of Acme Trucking', 3)).toHaveAttribute('aria-pressed', 'true');
    await expect(lineButton(page, 'Line of Beta Freight', 1)).toHaveAttribute('aria-pressed', 'true');
    await expect(item(page, 'Beta Freight').getByLabel('Email subject')).toHaveValue('Beta subject');
    await expect(item(page, 'Acme Trucking').getByLabel('Email content')).toHaveValue('Hello, is this load still available?');
    await expect(item(page, 'Beta Freight').getByRole('button', { name: 'Show Beta Freight in DAT' })).toHaveText('Hidden');
    await shot(page, 'lines-manager');

    // the agent uses Acme; deleting it takes the agent's setting too
    const acme = (await apiCall('GET', '/api/mcSettings', undefined, manager.token)).body.find((m: any) => m.name === 'Acme Trucking');
    expect((await apiCall('POST', '/api/mcSettings/add/', { parentMc: acme._id, lines: [4] }, agent.token)).status).toBe(200);
    await item(page, 'Acme Trucking').getByRole('button', { name: 'Delete Acme Trucking' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to delete Acme Trucking?');
    await shot(page, 'lines-delete-manager');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'MC deleted')).toBeVisible();
    await expect(page.getByTestId('mc-item')).toHaveCount(1);
    expect((await apiCall('GET', '/api/mcSettings', undefined, agent.token)).body).toEqual([]);
  });

  test("agent: picks one of its manager's MCs with its own line and templates", async ({ page }) => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    for (const [name, line] of [
      ['Acme Trucking', 1],
      ['Beta Freight', 2],
    ] as const)
      expect((await apiCall('POST', '/api/mcSettings/add/', { name, lines: [line] }, manager.token)).status).toBe(200);
    await loginAs(page, agent, '/lines');
    const form = addForm(page);
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(form.getByRole('alert')).toHaveText('Select MC');
    await form.getByLabel('MC', { exact: true }).selectOption({ label: 'Beta Freight' });
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(form.getByRole('alert')).toHaveText('Select line for new MC');
    // the agent's lines are its own: line 1 is free although the manager uses it
    await lineButton(page, 'Line for new MC', 1).click();
    await form.getByLabel('Email subject').fill('From the agent');
    await form.getByRole('button', { name: 'Add MC' }).click();
    await expect(item(page, 'Beta Freight')).toBeVisible();
    // an MC already in the list is not offered again; the name is the manager's and not editable
    await expect(form.getByLabel('MC', { exact: true }).locator('option')).toHaveText(['Select MC', 'Acme Trucking']);
    await expect(item(page, 'Beta Freight').getByRole('heading', { name: 'Beta Freight' })).toBeVisible();
    await shot(page, 'lines-agent');
    const mine = (await apiCall('GET', '/api/mcSettings', undefined, agent.token)).body;
    expect(mine.map((m: any) => [m.name, m.lines, m.emailSubject])).toEqual([['Beta Freight', [1], 'From the agent']]);
  });

  test('a line another tab took meanwhile: the save is refused naming the MC, and the list shows it', async ({ page }) => {
    const manager = await createUser('manager');
    const ids: Record<string, string> = {};
    for (const [name, line] of [
      ['Acme Trucking', 1],
      ['Beta Freight', 2],
    ] as const) {
      const res = await apiCall('POST', '/api/mcSettings/add/', { name, lines: [line] }, manager.token);
      ids[name] = res.body.mcSetting._id;
    }
    await loginAs(page, manager, '/lines');
    await expect(item(page, 'Beta Freight')).toBeVisible();
    // another tab moves Acme to line 3 after this screen loaded
    expect((await apiCall('POST', '/api/mcSettings/update/details', { mcSettings: [{ _id: ids['Acme Trucking'], lines: [3] }] }, manager.token)).status).toBe(
      200,
    );
    await lineButton(page, 'Line of Beta Freight', 3).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Line 3 is already used by Acme Trucking')).toBeVisible();
    // the refused save reloads the list: Acme shows on line 3 as stored, Beta its own line 2 again
    await expect(lineButton(page, 'Line of Acme Trucking', 3)).toHaveAttribute('aria-pressed', 'true');
    await expect(lineButton(page, 'Line of Beta Freight', 2)).toHaveAttribute('aria-pressed', 'true');
    await expect(lineButton(page, 'Line of Beta Freight', 3)).toBeDisabled();
    await shot(page, 'lines-line-taken');
    const stored = (await apiCall('GET', '/api/mcSettings', undefined, manager.token)).body;
    expect(stored.map((m: any) => [m.name, m.lines])).toEqual([
      ['Acme Trucking', [3]],
      ['Beta Freight', [2]],
    ]);
  });

  test('the help link opens the Lines help topic', async ({ page }) => {
    await page.goto('/help/lines');
    await expect(page.getByRole('heading', { name: 'Lines and MCs' })).toBeVisible();
    await expect(page.getByRole('article')).toContainText('Select line for new MC');
    await page.getByRole('navigation', { name: 'Help topics' }).getByRole('link', { name: 'Broker filters' }).click();
    await expect(page.getByRole('heading', { name: 'Broker filters', level: 1 })).toBeVisible();
    await shot(page, 'help-filters');
    await page.goto('/help/nothing-here');
    await expect(page.getByRole('heading', { name: 'Topic not found' })).toBeVisible();
  });

  test('manager: Team phone lines, a caller number per line and the dialer; agents see them; 1366 and 390 px', async ({ page }) => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    await page.setViewportSize({ width: 1366, height: 900 });
    await loginAs(page, manager, '/lines');
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Team phone lines' }) });
    await expect(card.getByRole('heading', { name: 'Team phone lines' })).toBeVisible();
    await card.getByLabel('Line 2 caller number').fill('312 555 0102');
    await card.getByRole('button', { name: 'Save Team Lines' }).click();
    await expect(card.getByRole('alert')).toHaveText('Line 2: enter the caller number in international format, like +1 312 555 0100');
    await card.getByLabel('Line 2 caller number').fill('+1 (312) 555-0102');
    await card.getByLabel('Line 2 label').fill('Chicago desk');
    await card.getByLabel('Dialpad, calling from the line’s number').check();
    await expect(card.getByTestId('dialer-example')).toHaveText('dialpad://%2B15135550142?fromNumber=%2B13125550102');
    await card.getByLabel('Another phone system (a URL template)').check();
    await card.getByLabel('URL template', { exact: true }).fill('javascript:alert({to})');
    await card.getByRole('button', { name: 'Save Team Lines' }).click();
    await expect(card.getByRole('alert')).toHaveText("The URL template must start with https:// or a phone app's own scheme (like aircall: or callto:)");
    await card.getByLabel('URL template', { exact: true }).fill('https://pbx.example/call?to={to}&from={from}&line={line}');
    await expect(card.getByTestId('dialer-example')).toHaveText('https://pbx.example/call?to=%2B15135550142&from=%2B13125550102&line=2');
    await card.getByRole('button', { name: 'Save Team Lines' }).click();
    await expect(toast(page, 'Team phone settings saved')).toBeVisible();
    await shot(page, 'lines-team-phones-1366');
    await page.reload();
    await expect(card.getByLabel('Line 2 caller number')).toHaveValue('+13125550102');
    await expect(card.getByLabel('URL template', { exact: true })).toHaveValue('https://pbx.example/call?to={to}&from={from}&line={line}');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'lines-team-phones-390');
    // the agent reads the team's lines, and cannot change them
    await loginAs(page, agent, '/lines');
    await expect(page.getByTestId('team-lines')).toHaveText(/Line 2\s*\+13125550102 · Chicago desk/);
    await expect(page.getByRole('button', { name: 'Save Team Lines' })).toHaveCount(0);
  });
});
