/// <reference lib="dom" />
import { expect, test } from './fixtures';
import { filterBody } from '../scripts/filter-body.mjs';
import { apiCall, createUser, loginAs, shot, toast } from './helpers';

/**
 * Decision 0007's "Done when": a manager imports a CSV of 200 brokers after a preview, finds one by
 * MC number, sees who changed it and reads its notes, and clears the verification queue; the
 * agent sees the state of its submissions.
 */
test('manager: imports 200 brokers after a preview, finds one by MC, reads history and notes, clears the queue', async ({ page }) => {
  const manager = await createUser('manager', { name: 'Mona Manager' });
  const agent = await createUser('agent', { parentId: manager.id, name: 'Alex Agent' });
  const mc = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Acme MC', lines: [1] }, manager.token)).body.mcSetting._id as string;
  expect((await apiCall('POST', '/api/mcSettings/add/', { parentMc: mc, lines: [1] }, agent.token)).status).toBe(200);
  const base = filterBody({ onlyCreator: true });
  const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body as { _id: string }[];
  for (const name of ['Agent Pick One', 'Agent Pick Two', 'Agent Pick Three'])
    expect((await apiCall('POST', '/api/broker/add', { ...base, name, type: types[0]!._id }, agent.token)).status).toBe(200);
  // one broker the team already has, which the file spells differently
  expect(
    (await apiCall('POST', '/api/broker/add', { ...base, onlyCreator: false, name: 'Known Freight LLC', type: types[1]!._id }, manager.token)).status,
  ).toBe(200);

  // 200 rows: 196 new brokers, one known, one copy of an earlier row, one bad MC, one unknown type
  const lines = ['name,type,comment,contacts,mcNumber,dotNumber'];
  for (let i = 1; i <= 196; i++)
    lines.push(`Imported Broker ${i},${i % 2 ? 'Blocked' : 'Preferred'},row ${i},+1 312 555 ${String(1000 + i)},${300000 + i},${900000 + i}`);
  lines.push('"known freight, inc.",Blocked,,,,', 'Imported Broker 1 LLC,Blocked,,,,', 'Bad Number Broker,Blocked,,,12ab,', 'Odd Type Broker,Sometimes,,,,');
  const csv = `${lines.join('\n')}\n`;

  await loginAs(page, manager, '/companyFilters');
  await expect(page.getByTestId('queue-badge')).toHaveText('3');
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page.getByRole('heading', { name: 'Import Filters' })).toBeVisible();
  await page.getByLabel('CSV file').setInputFiles({ name: 'brokers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const preview = page.getByTestId('import-preview');
  await expect(preview).toContainText('196 to create, 1 matching existing filters, 3 refused.');
  await page.getByLabel('Show rows').selectOption('refuse');
  await expect(preview.locator('tbody tr')).toHaveText([
    /198Imported Broker 1 LLCRefusedSame broker as row 1/,
    /199Bad Number BrokerRefusedMC number must be 1 to 8 digits/,
    /200Odd Type BrokerRefusedUnknown type "Sometimes"/,
  ]);
  await page.getByLabel('Show rows').selectOption('match');
  await expect(preview.locator('tbody tr')).toHaveText([/known freight, inc\.Matches existingKnown Freight LLC/]);
  await shot(page, 'filters-import-preview');
  await page.getByRole('button', { name: 'Import 196 filters' }).click();
  await expect(toast(page, '196 filters imported')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Broker Filtering' })).toBeVisible();
  await expect(page.locator('.table-title')).toHaveText('Filters List (Total: 200)');

  // find one by its MC number
  await page.getByLabel('Company name').fill('MC 300042');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByTestId('filters-table');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText('Imported Broker 42');
  await expect(table.locator('tbody tr')).toContainText('300042');

  // history and notes in the modal
  await page.getByRole('button', { name: 'Edit Imported Broker 42' }).click();
  const modal = page.getByRole('dialog', { name: 'Update Filter' });
  await modal.getByLabel('Comment').fill('Checked their authority');
  await modal.getByRole('button', { name: 'Update Info' }).click();
  await expect(toast(page, 'Filter updated')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Imported Broker 42' }).click();
  await modal.getByLabel('Add a note').fill('Dispatcher Dana answers before 9 am');
  await modal.getByRole('button', { name: 'Add note' }).click();
  await expect(modal.getByTestId('filter-notes')).toContainText('Mona Manager');
  await expect(modal.getByTestId('filter-notes')).toContainText('Dispatcher Dana answers before 9 am');
  await modal.getByRole('tab', { name: 'History' }).click();
  const history = modal.getByTestId('filter-history');
  await expect(history.locator('li')).toHaveCount(3);
  await expect(history.locator('li').nth(0)).toContainText('added a note');
  await expect(history.locator('li').nth(1)).toContainText('edited comment: row 42 → Checked their authority');
  await expect(history.locator('li').nth(2)).toContainText('imported it');
  await expect(history).toContainText('Mona Manager');
  await shot(page, 'filters-modal-history');
  await modal.getByRole('button', { name: 'Cancel' }).click();

  // the queue: reject one with a reason, verify the rest at once
  await page.getByRole('link', { name: /Verification Queue/ }).click();
  const queue = page.getByTestId('queue-table');
  await expect(queue.locator('tbody tr strong')).toHaveText(['Agent Pick Three', 'Agent Pick Two', 'Agent Pick One']);
  await page.getByRole('button', { name: 'Reject Agent Pick Two' }).click();
  await page.getByLabel('Reason (the agent sees it)').fill('We already block them under another name');
  await page.getByRole('dialog').getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, 'Filter rejected')).toBeVisible();
  await expect(page.getByTestId('queue-badge')).toHaveText('2');
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Verify selected (2)' }).click();
  await expect(toast(page, '2 filters verified')).toBeVisible();
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  await expect(page.getByTestId('queue-badge')).toHaveCount(0);
  await shot(page, 'filters-queue-cleared');

  // the agent sees its submissions' state
  await loginAs(page, agent, '/companyFilters');
  // the imported filters are newer: the agent narrows the list to its own
  await page.getByLabel('Company name').fill('Agent Pick');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const mine = page.getByTestId('filters-table');
  await expect(mine.locator('tbody tr')).toHaveCount(3);
  await expect(mine.locator('tbody tr', { hasText: 'Agent Pick Two' })).toContainText('RejectedWe already block them under another name');
  await expect(mine.locator('tbody tr', { hasText: 'Agent Pick One' })).toContainText('Active');
  await shot(page, 'filters-agent-rejected');
});
