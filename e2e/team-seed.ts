import { expect } from '@playwright/test';
import { filterBody } from '../scripts/filter-body.mjs';
import { apiCall, createUser, type E2EUser } from './helpers';

export type Role = 'admin' | 'director' | 'manager' | 'agent' | 'marketing';
/** A team of every role with data on every screen: filters of each type, lines, a call, a load, a link, promo codes. */
export interface Team extends Record<Role, E2EUser> {
  linkId: string;
}

/** Makes the team (rule 0155's screens with data in the tables). */
export async function seedTeam(): Promise<Team> {
  const admin = await createUser('admin', { name: 'Ada Admin' });
  const director = await createUser('director', { name: 'Dora Director' });
  const manager = await createUser('manager', { name: 'Mona Manager', parentId: director.id, subscriptionDays: 30 });
  const agent = await createUser('agent', { name: 'Alex Agent', parentId: manager.id, subscriptionDays: 30 });
  const marketing = await createUser('marketing', { name: 'Mark Marketing' });
  const mc = await apiCall('POST', '/api/mcSettings/add/', { name: 'Swift Haul (MC 104233)', lines: [1] }, manager.token);
  expect(mc.status).toBe(200);
  const own = await apiCall('POST', '/api/mcSettings/add/', { parentMc: mc.body.mcSetting._id, lines: [2] }, agent.token);
  expect(own.status).toBe(200);
  const types = (await apiCall('GET', '/api/user/filterOverrides', undefined, manager.token)).body as { _id: string }[];
  const filter = (who: E2EUser, name: string, type: string, contacts: string[]) =>
    apiCall('POST', '/api/broker/add', filterBody({ name, type, comment: `${name}: pays late`, contacts }), who.token);
  // one filter of each type, so every type's colour is on screen
  for (const [i, t] of types.entries()) expect((await filter(manager, `Broker ${i + 1}`, t._id, i === 0 ? ['+13125550142'] : [])).status).toBe(200);
  expect((await filter(agent, 'Agent Broker', types[0]!._id, [])).status).toBe(200);
  const log = await apiCall(
    'POST',
    '/api/callHistory/log',
    {
      mcSettingId: own.body.mcSetting._id,
      kind: 'call',
      contact: '+1 (312) 555-0142',
      brokerName: 'Acme Brokerage',
      address: '1 Main St, Chicago, IL',
      origin: 'Chicago, IL',
      dest: 'Dallas, TX',
      loadDate: new Date().toISOString().slice(0, 10),
      callDate: Date.now() - 3600_000,
      clientId: `a11y-${agent.id}`,
    },
    agent.token,
  );
  expect(log.status).toBe(201);
  const load = await apiCall(
    'POST',
    '/api/activeLoad/add',
    { clientId: `a11y-load-${agent.id}`, brokerName: 'Coyote Logistics', origin: 'Atlanta, GA', dest: 'Miami, FL', loadDate: '2026-07-14', date: Date.now() },
    agent.token,
  );
  expect(load.status).toBe(201);
  const link = await apiCall('POST', '/api/link/generate', { from: 'https://example.com/loads/board?lane=LA-NY' }, manager.token);
  expect(link.status).toBe(200);
  const linkId: string = link.body._id;
  expect(
    (await apiCall('POST', '/api/promocode/createRandomPublic', { effectType: 'freeMonths', effectValue: 1, generateAmount: 2 }, admin.token)).status,
  ).toBe(200);
  return { admin, director, manager, agent, marketing, linkId };
}

/** Every screen of each role, with the team's data. */
export const everyScreen = ({ admin, director, manager, agent, marketing, linkId }: Team): Record<Role, { user: () => E2EUser; paths: string[] }> => ({
  admin: {
    user: () => admin,
    paths: [
      '/users',
      '/createUser',
      `/profile/${manager.id}`,
      '/companyFilters',
      '/companyFilters/queue',
      '/companyFilters/import',
      '/filters',
      '/lines',
      '/activeLoads',
      '/promoCodes',
      '/adminPayments',
      '/analytics',
      '/failedMails',
      '/links',
      '/links/keys',
      '/create',
    ],
  },
  manager: {
    user: () => manager,
    paths: [
      '/users',
      '/createUser',
      '/profile/',
      '/companyFilters',
      '/companyFilters/queue',
      '/companyFilters/import',
      '/filters',
      '/callHistory',
      '/activeLoads',
      '/payment',
      '/payment?pay=team',
      '/lines',
      '/links',
      `/detail/${linkId}`,
    ],
  },
  agent: { user: () => agent, paths: ['/companyFilters', '/filters', '/callHistory', '/activeLoads', '/lines', '/payment', '/profile/'] },
  director: { user: () => director, paths: ['/callHistory', '/payment', '/profile/'] },
  marketing: { user: () => marketing, paths: ['/promoCodes', '/profile/'] },
});
