/// <reference lib="dom" />
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, createUser, type E2EUser, loginAs, shot, usDay } from './helpers';

const DAY = 86_400_000;
const RANGE_MESSAGE = 'History is available for maximum 40 days';

const rows = (page: Page) => page.locator('[data-testid="history-table"] tbody tr');
const total = async (page: Page) => Number((await page.getByTestId('history-total').textContent())!.replace(/\D/g, ''));
const loadButton = (page: Page) => page.getByRole('button', { name: 'Load', exact: true });
/** A local day as `<input type="date">` wants it. */
const dayValue = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const column = (page: Page, n: number) => page.locator(`[data-testid="history-table"] tbody tr td:nth-child(${n})`);
const pageInfo = (page: Page) => page.locator('.page-info');

/** The chart is loaded on demand: wait for its bars before a screenshot. */
const chartDrawn = (page: Page) => expect(page.getByTestId('contacts-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();

async function load(page: Page) {
  await loadButton(page).click();
  await expect(page.getByTestId('history-table')).toBeVisible();
}

/** The same query the screen sends for "Last 40 days", through the API, to compare counts. */
function last40(extra: Record<string, unknown>) {
  const from = new Date();
  from.setHours(0, 0, 0, 0);
  from.setDate(from.getDate() - 39);
  const to = new Date();
  to.setHours(0, 0, 0, 0);
  to.setDate(to.getDate() + 1);
  return { usersList: [], mcList: [], phoneLogs: true, emailLogs: true, dateFrom: from.toISOString(), dateTo: to.toISOString(), ...extra };
}

test.describe('Contact History', () => {
  test('agent: its own contacts, the 40-day rule, toggles and search', async ({ page }) => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id, name: 'Agnes Agent' });
    const mc = await apiCall('POST', '/api/mcSettings/add/', { name: 'Swift Haul (MC 104233)', parentMc: null, lines: [1] }, manager.token);
    const own = await apiCall('POST', '/api/mcSettings/add/', { parentMc: mc.body.mcSetting._id, lines: [2] }, agent.token);
    expect(own.status).toBe(200);
    const log = (body: Record<string, unknown>) =>
      apiCall(
        'POST',
        '/api/callHistory/log',
        {
          mcSettingId: own.body.mcSetting._id,
          address: '1 Main St, Chicago, IL',
          origin: 'Chicago, IL',
          dest: 'Dallas, TX',
          loadDate: dayValue(new Date()),
          clientId: `c-${Math.random().toString(36).slice(2)}`,
          ...body,
        },
        agent.token,
      );
    for (const body of [
      { kind: 'call', contact: '+1 (312) 555-0142', brokerName: 'Acme Brokerage', callDate: Date.now() - 2 * 3600_000 },
      { kind: 'call', contact: '+1 (214) 555-0199', brokerName: 'Zeta Freight', callDate: Date.now() - DAY },
      { kind: 'email', contact: 'ops@beta.example', brokerName: 'Beta Logistics', callDate: Date.now() - 2 * DAY },
      { kind: 'call', contact: '+1 (404) 555-0100', brokerName: 'Old Call Brokers', callDate: Date.now() - 20 * DAY },
    ])
      expect((await log(body)).status).toBe(201);
    // another agent's contact never shows up
    const other = await createUser('agent', { parentId: manager.id });
    const otherOwn = await apiCall('POST', '/api/mcSettings/add/', { parentMc: mc.body.mcSetting._id, lines: [1] }, other.token);
    await apiCall(
      'POST',
      '/api/callHistory/log',
      { clientId: 'x1', mcSettingId: otherOwn.body.mcSetting._id, kind: 'call', contact: '+1 (312) 555-0000', brokerName: 'Not Mine Inc' },
      other.token,
    );

    await loginAs(page, agent, '/callHistory');
    await expect(page.getByRole('heading', { name: 'Contact History' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'MC' }).getByText('Swift Haul (MC 104233)')).toBeVisible();
    await expect(page.getByText('Pick the dates and press Load')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Users' })).toHaveCount(0);
    await expect(page.getByLabel('Manager', { exact: true })).toHaveCount(0);

    // the 40-day rule: the red message and a disabled Load
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(45)));
    await expect(page.getByRole('alert')).toHaveText(RANGE_MESSAGE);
    await expect(loadButton(page)).toBeDisabled();
    await shot(page, 'history-range-error');
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(1)));
    await page.getByLabel('To', { exact: true }).fill(dayValue(daysAgo(3)));
    await expect(page.getByRole('alert')).toHaveText(RANGE_MESSAGE);
    await expect(loadButton(page)).toBeDisabled();
    // 40 calendar days with both ends: 39 days back to today loads, 40 back (41 days) does not
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(40)));
    await page.getByLabel('To', { exact: true }).fill(dayValue(new Date()));
    await expect(page.getByRole('alert')).toHaveText(RANGE_MESSAGE);
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(39)));
    await expect(page.getByText(RANGE_MESSAGE)).toHaveCount(0);
    await expect(loadButton(page)).toBeEnabled();
    // the button picks the same 40 days the typed rule allows
    await page.getByRole('button', { name: 'Last 40 days' }).click();
    // the field shows the day as the user's language writes it (components/ui/date-input.tsx)
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(usDay(dayValue(daysAgo(39))));
    await expect(loadButton(page)).toBeEnabled();

    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await load(page);
    await expect.poll(() => total(page)).toBe(3);
    await expect(column(page, 1)).toHaveText(['Agnes Agent', 'Agnes Agent', 'Agnes Agent']);
    await expect(column(page, 3)).toHaveText([/^Acme Brokerage(?:[☎✉]|$)/, /^Zeta Freight(?:[☎✉]|$)/, /^Beta Logistics(?:[☎✉]|$)/]);
    for (const col of ['Agent', 'MC', 'Company', 'Address', 'Origin', 'Destination', 'Load Date', 'Contact Date']) {
      await expect(page.locator('th', { hasText: col }).first()).toBeVisible();
    }
    await chartDrawn(page);
    await expect(page.getByTestId('calls-count')).toHaveText('2');
    await expect(page.getByTestId('emails-count')).toHaveText('1');
    await shot(page, 'history-agent');

    await page.getByRole('switch', { name: 'Emails' }).click();
    await load(page);
    await expect.poll(() => total(page)).toBe(2);
    await page.getByLabel('Search').fill('zeta');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Zeta Freight');
    await page.getByRole('switch', { name: 'Phone Calls' }).click();
    await expect(loadButton(page)).toBeDisabled();
  });

  let seeded: { managers: { email: string }[]; director: { email: string }; password: string; agents: { email: string; name: string; manager: string }[] };
  const asSeeded = async (email: string): Promise<E2EUser> => {
    const login = await apiCall('POST', '/api/auth/login', { email, password: seeded.password, clientType: 0 });
    return { id: login.body.userId, email, name: login.body.name, token: login.body.accessToken, userType: login.body.userType };
  };
  test.beforeAll(async () => {
    const res = await apiCall('POST', '/api/dev/seed', {
      teams: 2,
      agentsPerTeam: 4,
      mcsPerTeam: 2,
      filtersPerTeam: 10,
      historyRowsPerTeam: 2500,
      historyDays: 60,
      loadsPerAgent: 1,
      payments: 1,
      linksPerManager: 1,
      emailDomain: `e2e-${Date.now().toString(36)}.example`,
      password: 'secret-pass',
    });
    expect(res.status).toBe(201);
    seeded = res.body;
  });

  test('manager: 40 days of the team, Company filter, sort, page sizes, one user, CSV', async ({ page }) => {
    const manager = await asSeeded(seeded.managers[0]!.email);
    const expected = await apiCall('POST', '/api/callHistory/getHistory', last40({ managerId: manager.id }), manager.token);
    expect(expected.body.length).toBeGreaterThan(1000);

    await loginAs(page, manager, '/callHistory');
    await expect(page.getByRole('heading', { name: 'Contact History' })).toBeVisible();
    const users = page.getByRole('group', { name: 'Users' });
    await expect(users.getByText(`${manager.name} (manager)`)).toBeVisible();
    // the user and MC lists load separately: wait for each rather than reading once
    await expect(users.locator('input[type="checkbox"]')).toHaveCount(1 + 5);
    await expect(page.getByRole('group', { name: 'MC' }).locator('input[type="checkbox"]')).toHaveCount(1 + 2);
    await expect(page.getByLabel('Manager', { exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.body.length);
    await expect(rows(page)).toHaveCount(10);
    await chartDrawn(page);
    await shot(page, 'history-manager');
    await page.getByLabel('Page size').selectOption('50');
    await expect(rows(page)).toHaveCount(50);
    await expect(pageInfo(page)).toHaveText(`Page 1 of ${Math.ceil(expected.body.length / 50)}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(pageInfo(page)).toHaveText(/^Page 2 of/);

    // Company filter: every row is of the picked broker
    const broker = expected.body[0].brokerName as string;
    await page.getByLabel('Filter Company').selectOption(broker);
    const wanted = expected.body.filter((r: { brokerName: string }) => r.brokerName === broker).length;
    await expect(pageInfo(page)).toHaveText(`Page 1 of ${Math.ceil(wanted / 50)}`);
    await expect(column(page, 3).first()).toBeVisible();
    await expect.poll(async () => (await column(page, 3).allTextContents()).every((t) => t.startsWith(broker))).toBe(true);
    await page.getByLabel('Filter Company').selectOption('');

    // sort by Agent, both ways
    const names = [...new Set(expected.body.map((r: { parent: { name: string } }) => r.parent.name.toLowerCase()))].sort() as string[];
    const agentColumn = async () => (await column(page, 1).allTextContents()).map((t) => t.toLowerCase());
    // the whole column in order, not only its first row: the page before the sort can already start
    // with the first name (the date order's newest row is that agent's about one time in six)
    const inOrder = (column: string[], dir: 'asc' | 'desc') => {
      const sorted = [...column].sort();
      return (dir === 'asc' ? sorted : sorted.reverse()).join('\n') === column.join('\n');
    };
    await page.getByRole('button', { name: /^Agent/ }).click();
    await expect.poll(async () => (await agentColumn())[0]).toBe(names[0]);
    await expect.poll(async () => inOrder(await agentColumn(), 'asc')).toBe(true);
    await page.getByRole('button', { name: /^Agent/ }).click();
    await expect.poll(async () => (await agentColumn())[0]).toBe(names.at(-1));
    await expect.poll(async () => inOrder(await agentColumn(), 'desc')).toBe(true);

    // CSV of the loaded rows
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('Agent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact,Board');
    expect(csv).toHaveLength(expected.body.length + 1);

    // one agent only
    const agent = seeded.agents.find((a) => a.manager === manager.email)!;
    await users.getByLabel('All users').uncheck();
    await expect(loadButton(page)).toBeDisabled();
    await users.getByLabel(agent.name, { exact: true }).first().check();
    await load(page);
    const agentRows = await apiCall('POST', '/api/callHistory/getHistory', last40({ usersList: [(await asSeeded(agent.email)).id] }), manager.token);
    await expect.poll(() => total(page)).toBe(agentRows.body.length);
    expect(new Set(await column(page, 1).allTextContents())).toEqual(new Set([agent.name]));
  });

  test('the server pages, searches, filters by Company and sorts; the view lives in the URL', async ({ page }) => {
    type Row = {
      parent: { name: string };
      mcName: string;
      brokerName: string;
      address: string;
      origin: string;
      dest: string;
      loadDate: string;
      contact: string;
    };
    const manager = await asSeeded(seeded.managers[0]!.email);
    const expected = (await apiCall('POST', '/api/callHistory/getHistory', last40({ managerId: manager.id }), manager.token)).body as Row[];
    const bodies: Record<string, unknown>[] = [];
    const wholeLoads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/callHistory/page')) bodies.push(r.postDataJSON());
      if (r.url().endsWith('/api/callHistory/getHistory')) wholeLoads.push(r.url());
    });
    await loginAs(page, manager, '/callHistory');
    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.length);
    await expect(rows(page)).toHaveCount(10);
    expect(bodies.at(-1)).toMatchObject({ page: 1, pageSize: 10, search: '', company: null, sort: null, summary: true });

    // search, typed letter by letter as people type: a call once typing pauses, not one per letter
    const word = expected.find((r) => r.origin)!.origin.split(',')[0]!;
    const matching = expected.filter((r) =>
      [r.parent.name, r.mcName, r.brokerName, r.address, r.origin, r.dest, r.loadDate, r.contact].some((v) => v.toLowerCase().includes(word.toLowerCase())),
    );
    // wait for the whole word's answer: a slow machine can pause between letters long enough to send a
    // shorter search ("Salt Lake" for "Salt Lake City") whose rows count the same
    const wholeWord = page.waitForResponse((r) => r.url().endsWith('/api/callHistory/page') && r.request().postDataJSON()?.search === word);
    await page.getByLabel('Search').pressSequentially(word, { delay: 120 });
    await wholeWord;
    await expect(page.getByTestId('rows-shown')).toHaveText(`Showing ${matching.length} of ${expected.length}`);
    const searches = bodies.filter((b) => b.search).map((b) => b.search);
    expect(searches.at(-1)).toBe(word);
    expect(searches.length).toBeLessThan(word.length);
    // after the Load's first page, the view's changes ask for the page alone (the Total and chart stay)
    expect(bodies.filter((b) => b.search).every((b) => b.summary === false)).toBe(true);
    await expect(page.getByTestId('history-total')).toHaveText(`Total: ${expected.length}`);
    expect(new URL(page.url()).searchParams.get('q')).toBe(word);

    // sort by Company: the first row is the first Company of the matches, A to Z
    await page.getByRole('button', { name: /^Company/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('brokerName');
    const firstBroker = matching.map((r) => r.brokerName).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))[0]!;
    await expect.poll(async () => (await column(page, 3).first().textContent())?.startsWith(firstBroker)).toBe(true);

    // a Company: only its rows, counted by the server
    const broker = matching.at(-1)!.brokerName;
    const both = matching.filter((r) => r.brokerName === broker);
    await page.getByLabel('Filter Company').selectOption(broker);
    await expect(page.getByTestId('rows-shown')).toHaveText(`Showing ${both.length} of ${expected.length}`);
    await expect.poll(async () => (await column(page, 3).allTextContents()).every((t) => t.startsWith(broker))).toBe(true);
    expect(new URL(page.url()).searchParams.get('f.brokerName')).toBe(broker);
    await page.getByLabel('Filter Company').selectOption('');

    // page 2 of 20 rows
    await page.getByLabel('Page size').selectOption('20');
    if (matching.length > 20) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(pageInfo(page)).toHaveText(`Page 2 of ${Math.ceil(matching.length / 20)}`);
      await expect.poll(() => bodies.at(-1)).toMatchObject({ page: 2, pageSize: 20, search: word, sort: { column: 'brokerName', dir: 'asc' } });
    }
    // the page label and the request come before the answer, and the last view's rows stay shown
    // until it comes (the table says aria-busy meanwhile): read the rows of this view, not the last
    await expect(page.getByTestId('history-table').locator('table')).toHaveAttribute('aria-busy', 'false');
    await expect(rows(page)).toHaveCount(matching.length > 20 ? Math.min(20, matching.length - 20) : matching.length);
    const shownBefore = await column(page, 3).allTextContents();
    const url = page.url();

    // a reload (and so a shared link) shows the same view
    await page.reload();
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.length);
    expect(page.url()).toBe(url);
    await expect(page.getByLabel('Search')).toHaveValue(word);
    await expect(page.getByTestId('rows-shown')).toHaveText(`Showing ${matching.length} of ${expected.length}`);
    await expect.poll(() => column(page, 3).allTextContents()).toEqual(shownBefore);
    // the screen never loaded the whole range
    expect(wholeLoads).toEqual([]);
  });

  test('the range, the unchecked users and the Emails switch live in the URL: a reload loads the same view', async ({ page }) => {
    const manager = await asSeeded(seeded.managers[0]!.email);
    await loginAs(page, manager, '/callHistory');
    const users = page.getByRole('group', { name: 'Users' });
    await expect(users.locator('input[type="checkbox"]')).toHaveCount(1 + 5);
    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBeGreaterThan(0);
    const all = await total(page);

    await page.getByRole('switch', { name: 'Emails' }).click();
    await users.locator('input[type="checkbox"]').nth(2).uncheck();
    await load(page);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBeLessThan(all);
    const narrowed = await total(page);
    const url = new URL(page.url());
    expect(url.searchParams.get('emails')).toBe('0');
    expect(url.searchParams.get('xu')).toBeTruthy();
    expect(url.searchParams.get('shown')).toBe('1');

    await page.reload();
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(narrowed);
    await expect(page.getByRole('switch', { name: 'Emails' })).toHaveAttribute('aria-checked', 'false');
    await expect(users.locator('input[type="checkbox"]').nth(2)).not.toBeChecked();
    await expect(page.getByLabel('From')).toHaveValue(usDay(url.searchParams.get('from')!));
  });

  test('director: picks a manager, sees that team only', async ({ page }) => {
    const director = await asSeeded(seeded.director.email);
    const [m1, m2] = await Promise.all(seeded.managers.map((m) => asSeeded(m.email)));
    await loginAs(page, director, '/callHistory');
    await expect(page.getByRole('heading', { name: 'Contact History' })).toBeVisible();
    const select = page.getByLabel('Manager', { exact: true });
    await expect(select.locator('option')).toHaveCount(2);
    await expect(select).toHaveValue(m1!.id);
    await select.selectOption(m2!.id);
    const users = page.getByRole('group', { name: 'Users' });
    await expect(users.getByText(`${m2!.name} (manager)`)).toBeVisible();
    const team2 = seeded.agents.filter((a) => a.manager === m2!.email).map((a) => a.name);
    for (const name of team2) await expect(users.getByText(name, { exact: true }).first()).toBeVisible();

    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    const expected = await apiCall('POST', '/api/callHistory/getHistory', last40({ managerId: m2!.id }), director.token);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.body.length);
    await chartDrawn(page);
    await shot(page, 'history-director');
    await page.getByLabel('Page size').selectOption('50');
    await expect(rows(page)).toHaveCount(Math.min(50, expected.body.length));
    const agents = new Set(await column(page, 1).allTextContents());
    for (const name of agents) expect([...team2, m2!.name]).toContain(name);
    // an MC of the team narrows the rows
    const mcs = page.getByRole('group', { name: 'MC' });
    await mcs.getByLabel('All MC').uncheck();
    await mcs.locator('input[type="checkbox"]').nth(1).check();
    await load(page);
    await expect.poll(() => total(page)).toBeLessThan(expected.body.length);
    await expect.poll(() => total(page)).toBeGreaterThan(0);
  });
});
