/// <reference lib="dom" />
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, type E2EUser, launch, loginAs, newPage, shot } from './helpers';

const DAY = 86_400_000;
const RANGE_MESSAGE = 'History is available for maximum 40 days';
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const rows = (page: Page) => page.locator('[data-testid="history-table"] tbody tr');
const total = async (page: Page) => Number((await page.getByTestId('history-total').textContent())!.replace(/\D/g, ''));
const loadButton = (page: Page) => page.getByRole('button', { name: 'Load', exact: true });
/** A local day as `<input type="date">` wants it. */
const dayValue = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const columnTexts = (page: Page, n: number) => page.locator(`[data-testid="history-table"] tbody tr td:nth-child(${n})`).allTextContents();

/** The chart is loaded on demand: wait for its bars before a screenshot. */
const chartDrawn = (page: Page) => page.getByTestId('contacts-chart').locator('.recharts-bar-rectangle').first().waitFor();

async function load(page: Page) {
  await loadButton(page).click();
  await page.getByTestId('history-table').waitFor();
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

describe('Contact History', () => {
  it('agent: its own contacts, the 40-day rule, toggles and search', async () => {
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

    const page = await newPage(browser);
    await loginAs(page, agent, '/callHistory');
    await page.getByRole('heading', { name: 'Contact History' }).waitFor();
    expect(await page.getByRole('group', { name: 'Users' }).count()).toBe(0);
    expect(await page.getByLabel('Manager', { exact: true }).count()).toBe(0);
    await page.getByRole('group', { name: 'MC' }).getByText('Swift Haul (MC 104233)').waitFor();
    await page.getByText('Pick the dates and press Load').waitFor();

    // the 40-day rule: the red message and a disabled Load
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(45)));
    await expect(page.getByRole('alert').textContent()).resolves.toBe(RANGE_MESSAGE);
    await expect(loadButton(page).isDisabled()).resolves.toBe(true);
    await shot(page, 'history-range-error');
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(1)));
    await page.getByLabel('To', { exact: true }).fill(dayValue(daysAgo(3)));
    await expect(page.getByRole('alert').textContent()).resolves.toBe(RANGE_MESSAGE);
    await expect(loadButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('From', { exact: true }).fill(dayValue(daysAgo(40)));
    await page.getByLabel('To', { exact: true }).fill(dayValue(new Date()));
    expect(await page.getByText(RANGE_MESSAGE).count()).toBe(0);
    await expect(loadButton(page).isEnabled()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await load(page);
    await expect.poll(() => total(page)).toBe(3);
    expect(await columnTexts(page, 1)).toEqual(['Agnes Agent', 'Agnes Agent', 'Agnes Agent']);
    expect((await columnTexts(page, 3)).map((t) => t.split(/[☎✉]/)[0])).toEqual(['Acme Brokerage', 'Zeta Freight', 'Beta Logistics']);
    for (const col of ['Agent', 'MC', 'Company', 'Address', 'Origin', 'Destination', 'Load Date', 'Contact Date']) {
      expect(await page.locator('th', { hasText: col }).count()).toBeGreaterThan(0);
    }
    await chartDrawn(page);
    expect(await page.getByTestId('calls-count').textContent()).toBe('2');
    expect(await page.getByTestId('emails-count').textContent()).toBe('1');
    await shot(page, 'history-agent');

    await page.getByRole('switch', { name: 'Emails' }).click();
    await load(page);
    await expect.poll(() => total(page)).toBe(2);
    await page.getByLabel('Search').fill('zeta');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('Zeta Freight');
    await page.getByRole('switch', { name: 'Phone Calls' }).click();
    await expect(loadButton(page).isDisabled()).resolves.toBe(true);
    await page.close();
  });

  let seeded: { managers: { email: string }[]; director: { email: string }; password: string; agents: { email: string; name: string; manager: string }[] };
  const asSeeded = async (email: string): Promise<E2EUser> => {
    const login = await apiCall('POST', '/api/auth/login', { email, password: seeded.password, clientType: 0 });
    return { id: login.body.userId, email, name: login.body.name, token: login.body.accessToken, userType: login.body.userType };
  };
  beforeAll(async () => {
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

  it('manager: 40 days of the team, Company filter, sort, page sizes, one user, CSV', async () => {
    const manager = await asSeeded(seeded.managers[0]!.email);
    const expected = await apiCall('POST', '/api/callHistory/getHistory', last40({ managerId: manager.id }), manager.token);
    expect(expected.body.length).toBeGreaterThan(1000);

    const page = await newPage(browser);
    await loginAs(page, manager, '/callHistory');
    await page.getByRole('heading', { name: 'Contact History' }).waitFor();
    const users = page.getByRole('group', { name: 'Users' });
    await users.getByText(`${manager.name} (manager)`).waitFor();
    // the user and MC lists load separately: wait for each rather than reading once
    await expect.poll(() => users.locator('input[type="checkbox"]').count()).toBe(1 + 5);
    await expect.poll(() => page.getByRole('group', { name: 'MC' }).locator('input[type="checkbox"]').count()).toBe(1 + 2);
    expect(await page.getByLabel('Manager', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.body.length);
    expect(await rows(page).count()).toBe(10);
    await chartDrawn(page);
    await shot(page, 'history-manager');
    await page.getByLabel('Page size').selectOption('50');
    expect(await rows(page).count()).toBe(50);
    expect(await page.locator('.page-info').textContent()).toBe(`Page 1 of ${Math.ceil(expected.body.length / 50)}`);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.locator('.page-info').textContent()).toMatch(/^Page 2 of/);

    // Company filter: every row is of the picked broker
    const broker = expected.body[0].brokerName as string;
    await page.getByLabel('Filter Company').selectOption(broker);
    const wanted = expected.body.filter((r: { brokerName: string }) => r.brokerName === broker).length;
    expect(await page.locator('.page-info').textContent()).toBe(`Page 1 of ${Math.ceil(wanted / 50)}`);
    expect((await columnTexts(page, 3)).every((t) => t.startsWith(broker))).toBe(true);
    await page.getByLabel('Filter Company').selectOption('');

    // sort by Agent, both ways
    const names = [...new Set(expected.body.map((r: { parent: { name: string } }) => r.parent.name.toLowerCase()))].sort() as string[];
    await page.getByRole('button', { name: /^Agent/ }).click();
    const asc = (await columnTexts(page, 1)).map((t) => t.toLowerCase());
    expect(asc[0]).toBe(names[0]);
    expect([...asc].sort()).toEqual(asc);
    await page.getByRole('button', { name: /^Agent/ }).click();
    const desc = (await columnTexts(page, 1)).map((t) => t.toLowerCase());
    expect(desc[0]).toBe(names.at(-1));
    expect([...desc].sort().reverse()).toEqual(desc);

    // CSV of the loaded rows
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('Agent,MC,Company,Address,Origin,Destination,Load Date,Contact Date,Type,Contact');
    expect(csv).toHaveLength(expected.body.length + 1);

    // one agent only
    const agent = seeded.agents.find((a) => a.manager === manager.email)!;
    await users.getByLabel('All users').uncheck();
    await expect(loadButton(page).isDisabled()).resolves.toBe(true);
    await users.getByLabel(agent.name, { exact: true }).first().check();
    await load(page);
    const agentRows = await apiCall('POST', '/api/callHistory/getHistory', last40({ usersList: [(await asSeeded(agent.email)).id] }), manager.token);
    await expect.poll(() => total(page)).toBe(agentRows.body.length);
    expect(new Set(await columnTexts(page, 1))).toEqual(new Set([agent.name]));
    await page.close();
  });

  it('director: picks a manager, sees that team only', async () => {
    const director = await asSeeded(seeded.director.email);
    const [m1, m2] = await Promise.all(seeded.managers.map((m) => asSeeded(m.email)));
    const page = await newPage(browser);
    await loginAs(page, director, '/callHistory');
    await page.getByRole('heading', { name: 'Contact History' }).waitFor();
    const select = page.getByLabel('Manager', { exact: true });
    await expect.poll(() => select.locator('option').count()).toBe(2);
    expect(await select.inputValue()).toBe(m1!.id);
    await select.selectOption(m2!.id);
    const users = page.getByRole('group', { name: 'Users' });
    await users.getByText(`${m2!.name} (manager)`).waitFor();
    const team2 = seeded.agents.filter((a) => a.manager === m2!.email).map((a) => a.name);
    for (const name of team2) expect(await users.getByText(name, { exact: true }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Last 40 days' }).click();
    await load(page);
    const expected = await apiCall('POST', '/api/callHistory/getHistory', last40({ managerId: m2!.id }), director.token);
    await expect.poll(() => total(page), { timeout: 15_000 }).toBe(expected.body.length);
    await chartDrawn(page);
    await shot(page, 'history-director');
    await page.getByLabel('Page size').selectOption('50');
    const agents = new Set(await columnTexts(page, 1));
    for (const name of agents) expect([...team2, m2!.name]).toContain(name);
    // an MC of the team narrows the rows
    const mcs = page.getByRole('group', { name: 'MC' });
    await mcs.getByLabel('All MC').uncheck();
    await mcs.locator('input[type="checkbox"]').nth(1).check();
    await load(page);
    await expect.poll(() => total(page)).toBeLessThan(expected.body.length);
    expect(await total(page)).toBeGreaterThan(0);
    await page.close();
  });
});
