/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, type E2EUser, launch, loginAs, newPage, shot } from './helpers';

let browser: Browser;
let manager: E2EUser;
let agent: E2EUser;
let other: E2EUser;
beforeAll(async () => {
  browser = await launch();
  manager = await createUser('manager', { name: 'Mona Manager' });
  agent = await createUser('agent', { parentId: manager.id, name: 'Arthur Agent' });
  other = await createUser('manager', { name: 'Other Team Manager' });
  const add = (who: E2EUser, brokerName: string, origin: string, dest: string, hoursAgo: number) =>
    apiCall(
      'POST',
      '/api/activeLoad/add',
      { clientId: `${brokerName.replace(/\W+/g, '-')}-${who.id}`, brokerName, origin, dest, loadDate: '2026-07-14', date: Date.now() - hoursAgo * 3600_000 },
      who.token,
    );
  for (const res of await Promise.all([
    add(agent, 'Coyote Logistics', 'Atlanta, GA', 'Miami, FL', 1),
    add(agent, 'Echo Global Logistics', 'Chicago, IL', 'Dallas, TX', 5),
    add(manager, 'Landstar', 'Denver, CO', 'Phoenix, AZ', 3),
    add(other, 'Other Team Broker', 'Reno, NV', 'Fresno, CA', 2),
  ]))
    expect(res.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
});

const rowTexts = (page: Page) => page.locator('[data-testid="loads-table"] tbody tr').allTextContents();

describe('Active loads', () => {
  it('agent: My active loads, deletes one after confirming', async () => {
    const page = await newPage(browser);
    await loginAs(page, agent, '/activeLoads');
    await page.getByRole('heading', { name: 'My active loads' }).waitFor();
    await page.locator('[data-testid="loads-table"] tbody tr').first().waitFor();
    for (const col of ['Agent', 'Company', 'Load', 'Date', 'Action']) expect(await page.locator('th', { hasText: col }).count()).toBeGreaterThan(0);
    let texts = await rowTexts(page);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Arthur Agent');
    expect(texts[0]).toContain('Coyote Logistics');
    expect(texts[0]).toMatch(/Atlanta, GA →\s*(to)?\s*Miami, FL/);
    expect(texts[1]).toContain('Echo Global Logistics');
    expect(texts.join()).not.toContain('Landstar');
    expect(await page.getByTestId('loads-total').textContent()).toBe('Total: 2');
    await shot(page, 'loads-agent');

    await page.getByRole('button', { name: 'Delete load Chicago, IL to Dallas, TX' }).click();
    await expect(page.getByRole('dialog').textContent()).resolves.toContain(
      'Are you sure you want to delete the load Chicago, IL → Dallas, TX (Echo Global Logistics)?',
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await rowTexts(page)).toHaveLength(2);
    await page.getByRole('button', { name: 'Delete load Chicago, IL to Dallas, TX' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('toast').first().textContent()).resolves.toContain('Load deleted');
    await expect.poll(() => rowTexts(page)).toHaveLength(1);
    texts = await rowTexts(page);
    expect(texts[0]).toContain('Coyote Logistics');
    const mine = await apiCall('GET', '/api/activeLoad/my', undefined, agent.token);
    expect(mine.body.map((l: { brokerName: string }) => l.brokerName)).toEqual(['Coyote Logistics']);
    await page.close();
  });

  it("manager: the team's active loads, deletes its agent's load", async () => {
    const page = await newPage(browser);
    await loginAs(page, manager, '/callHistory');
    await page.getByRole('link', { name: "Team's active loads" }).click();
    await page.getByRole('heading', { name: "My team's active loads" }).waitFor();
    await page.locator('[data-testid="loads-table"] tbody tr').first().waitFor();
    const texts = await rowTexts(page);
    expect(texts).toHaveLength(2);
    expect(texts.join()).toContain('Mona Manager');
    expect(texts.join()).toContain('Arthur Agent');
    expect(texts.join()).not.toContain('Other Team Broker');
    await page.getByLabel('Search').fill('coyote');
    await expect.poll(() => rowTexts(page)).toHaveLength(1);
    await page.getByLabel('Search').fill('');
    await shot(page, 'loads-manager');

    await page.getByRole('button', { name: 'Delete load Atlanta, GA to Miami, FL' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowTexts(page)).toHaveLength(1);
    expect((await rowTexts(page))[0]).toContain('Landstar');
    expect((await apiCall('GET', '/api/activeLoad/my', undefined, agent.token)).body).toEqual([]);
    // the other team's load is untouched
    expect((await apiCall('POST', '/api/activeLoad/team', {}, other.token)).body).toHaveLength(1);
    await page.close();
  });

  it('director: the screen is not there; it lands on Contact History', async () => {
    const director = await createUser('director');
    const page = await newPage(browser);
    await loginAs(page, director, '/activeLoads');
    await page.waitForURL('**/callHistory');
    await page.getByRole('heading', { name: 'Contact History' }).waitFor();
    expect(await page.getByText('active loads').count()).toBe(0);
    await page.close();
  });
});
