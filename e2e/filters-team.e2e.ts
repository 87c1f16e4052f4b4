/// <reference lib="dom" />

import { filterBody } from '../scripts/filter-body.mjs';
import { expectNoA11yViolations, expectNoHorizontalOverflow } from './a11y';
import { expect, test } from './fixtures';
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
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'CSV file Choose file' }).click();
  await (await chooser).setFiles({ name: 'brokers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByText('brokers.csv', { exact: true }).first()).toBeVisible();
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

/**
 * Rule 0089: the agent corrects its own rejected team filter from Broker Filtering (Edit on
 * its row, the modal says why it was rejected) and the save sends it back to the manager's queue.
 */
test('agent: corrects its rejected team filter; it goes back to the queue and into its history', async ({ page }) => {
  const manager = await createUser('manager', { name: 'Rita Manager' });
  const agent = await createUser('agent', { parentId: manager.id, name: 'Ravi Agent' });
  const teammate = await createUser('agent', { parentId: manager.id, name: 'Tess Teammate' });
  const mc = (await apiCall('POST', '/api/mcSettings/add/', { name: 'Rita MC', lines: [1] }, manager.token)).body.mcSetting._id as string;
  for (const user of [agent, teammate]) expect((await apiCall('POST', '/api/mcSettings/add/', { parentMc: mc, lines: [1] }, user.token)).status).toBe(200);
  const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body as { _id: string }[];
  const added = await apiCall(
    'POST',
    '/api/broker/add',
    filterBody({ name: 'Shaky Haulers', type: types[0]!._id, usersList: [agent.id, teammate.id], mcNumber: '12345' }),
    agent.token,
  );
  const id = added.body._id as string;
  expect((await apiCall('POST', '/api/broker/queue/reject', { filterId: id, reason: 'Wrong MC: check FMCSA' }, manager.token)).status).toBe(200);

  // the 1366 px pass corrects it; the manager rejects the correction; the 390 px pass shows that
  for (const [width, height, reason] of [
    [1366, 900, 'Wrong MC: check FMCSA'],
    [390, 844, 'Still the wrong MC'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await loginAs(page, agent, '/companyFilters');
    const row = page.getByTestId('filters-table').locator('tbody tr', { hasText: 'Shaky Haulers' });
    await expect(row).toContainText(`Rejected${reason}`);
    // Edit alone: the correction is the one right the agent has on a team filter
    await expect(row.getByRole('button', { name: 'Edit Shaky Haulers' })).toBeVisible();
    await expect(row.getByRole('button', { name: /^(Delete|Disable|View) / })).toHaveCount(0);
    await expectNoHorizontalOverflow(page, `rejected row ${width}`);
    await shot(page, `filters-agent-correct-row-${width}`);
    await row.getByRole('button', { name: 'Edit Shaky Haulers' }).click();
    const modal = page.getByRole('dialog', { name: 'Update Filter' });
    await expect(modal.getByTestId('rejected-note')).toHaveText(
      `Rejected Your manager rejected it: ${reason}. Correct it and save: it goes back to your manager for verification.`,
    );
    await expectNoA11yViolations(page, `correction modal ${width}`);
    await shot(page, `filters-agent-correct-modal-${width}`);
    if (width === 390) {
      await modal.getByRole('button', { name: 'Cancel' }).click();
      break;
    }
    await modal.getByLabel('MC number').fill('54321');
    await modal.getByRole('button', { name: 'Send for verification' }).click();
    await expect(toast(page, 'Filter updated and sent to your manager for verification')).toBeVisible();
    await expect(row).toContainText('Unverified(Added by Agent)');
    await expect(row).toContainText('54321');
    // corrected and waiting: no longer the agent's to change
    await expect(row.getByRole('button', { name: 'View Shaky Haulers' })).toBeVisible();
    await shot(page, `filters-agent-corrected-${width}`);
    expect((await apiCall('POST', '/api/broker/queue/reject', { filterId: id, reason: 'Still the wrong MC' }, manager.token)).status).toBe(200);
  }

  // the manager: back in the queue, with the correction in its history
  const queue = await apiCall('GET', '/api/broker/queue/count', undefined, manager.token);
  expect(queue.body).toEqual({ count: 0 });
  const history = (await apiCall('GET', `/api/broker/${id}/history`, undefined, manager.token)).body as { kind: string }[];
  expect(history.map((e) => e.kind)).toEqual(['rejected', 'resubmitted', 'edited', 'rejected', 'created']);
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginAs(page, manager, '/companyFilters');
  await page.getByRole('button', { name: 'Edit Shaky Haulers' }).click();
  const modal = page.getByRole('dialog', { name: 'Update Filter' });
  await modal.getByRole('tab', { name: 'History' }).click();
  await expect(modal.getByTestId('filter-history').locator('li').nth(1)).toContainText('Ravi Agent');
  await expect(modal.getByTestId('filter-history').locator('li').nth(1)).toContainText('corrected it and sent it back for verification');
  await expect(modal.getByTestId('filter-history').locator('li').nth(2)).toContainText('edited MC number: 12345 → 54321');
});
