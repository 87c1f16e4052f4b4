import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8797';
const out = '/tmp/filters-shots';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
async function login(email) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(base + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('demo12345');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByTestId('user-email').waitFor();
  return page;
}
const m = await login('manager1@demo.example');
await m.goto(base + '/companyFilters');
await m.getByTestId('filters-table').waitFor();
await m.waitForTimeout(1500);
await m.screenshot({ path: `${out}/1-manager-filters.png` });
// search by MC number
await m
  .getByLabel(/company name|name/i)
  .first()
  .fill('100007');
await m
  .getByRole('button', { name: /search/i })
  .first()
  .click();
await m.waitForTimeout(1500);
await m.screenshot({ path: `${out}/2-search-mc.png` });
// open the first filter, add a note
await m
  .getByRole('button', { name: /^Edit / })
  .first()
  .click();
await m.getByTestId('filter-notes').waitFor();
await m.getByLabel('Add a note').fill('Called them: pays in 30 days, ask for Dana.');
await m.getByRole('button', { name: 'Add note' }).click();
await m.waitForTimeout(1200);
await m.screenshot({ path: `${out}/3-modal-notes.png`, fullPage: true });
await m.getByRole('tab', { name: 'History' }).click();
await m.waitForTimeout(800);
await m.screenshot({ path: `${out}/4-modal-history.png`, fullPage: true });
await m.keyboard.press('Escape');
// duplicate: create an existing name
await m.goto(base + '/companyFilters');
await m.getByTestId('filters-table').waitFor();
const firstName = (await m.locator('[data-testid=filters-table] tbody tr td strong').first().textContent()).trim();
await m.getByRole('button', { name: 'Create Filter' }).first().click();
await m
  .getByRole('dialog')
  .getByLabel('Company name')
  .fill(firstName.toUpperCase() + ', LLC');
await m.getByRole('dialog').getByLabel('Type', { exact: true }).selectOption({ index: 1 });
await m.getByRole('dialog').getByLabel('All MC').check();
await m.getByRole('button', { name: 'Create Filter' }).last().click();
await m.waitForTimeout(2500);
await m.screenshot({ path: out + '/5a-debug.png', fullPage: true });
await m.getByTestId('duplicate-note').waitFor();
await m.screenshot({ path: `${out}/5-duplicate.png`, fullPage: true });
await m.getByRole('button', { name: 'Open it' }).click();
await m.waitForTimeout(1200);
await m.screenshot({ path: `${out}/6-opened-duplicate.png`, fullPage: true });
await m.keyboard.press('Escape');
// bulk select
await m
  .getByRole('checkbox', { name: /^Select / })
  .nth(0)
  .check();
await m
  .getByRole('checkbox', { name: /^Select / })
  .nth(1)
  .check();
await m.screenshot({ path: `${out}/7-bulk-bar.png` });
// queue
await m.goto(base + '/companyFilters/queue');
await m.waitForTimeout(1500);
await m.screenshot({ path: `${out}/8-queue.png`, fullPage: true });
const a = await login('agent1.1@demo.example');
await a.goto(base + '/companyFilters');
await a.getByTestId('filters-table').waitFor();
await a.waitForTimeout(1200);
await a.screenshot({ path: `${out}/9-agent.png` });
await browser.close();
