import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../history/history.schema';
import { allShards, d1Of } from '../lib/d1';
import { kvKey } from '../links/links.service';
import { call, countRows, testEnv } from '../test/helpers';
import { devApp } from './index';

const DOMAIN = 'seedtest.example';
const SMALL = {
  teams: 2,
  agentsPerTeam: 3,
  mcsPerTeam: 2,
  filtersPerTeam: 40,
  historyRowsPerTeam: 700,
  historyDays: 30,
  loadsPerAgent: 2,
  payments: 2,
  linksPerManager: 1,
  emailDomain: DOMAIN,
  password: 'demo12345',
};

const one = async <T>(d1: D1Database, sql: string, ...params: unknown[]) =>
  (await d1
    .prepare(sql)
    .bind(...params)
    .first<T>())!;
const count = async (d1: D1Database, sql: string, ...params: unknown[]) => (await one<{ n: number }>(d1, sql, ...params)).n;

describe('POST /api/dev/seed (development only)', () => {
  it('makes a whole company, consistent with itself, and refuses a second run', async () => {
    const res = await call('POST', '/api/dev/seed', { body: SMALL });
    expect(res.status).toBe(201);
    expect(res.body.managers.map((m: { email: string }) => m.email)).toEqual([`manager1@${DOMAIN}`, `manager2@${DOMAIN}`]);
    expect(res.body.director.email).toBe(`director@${DOMAIN}`);
    expect(res.body.agents).toHaveLength(6);
    expect(res.body.benchManager).toBe(`manager1@${DOMAIN}`);
    // the company's data is in its shard; the directory and money in the control plane
    const shard = d1Of(testEnv, res.body.shard);
    expect(res.body.shard).not.toBe('DB');
    expect(res.body.counts).toMatchObject({
      users: 10,
      mcSettings: 2 * 2 + 6 * 2,
      filters: 80,
      history: 1400,
      activeLoads: 2 * (1 + 3 * 2),
      payments: 4,
      confirmedPayments: 2,
      links: 2,
    });

    // the tree: director → managers → agents, all with the one password
    // every role can log in, marketing included: it sees the promo codes
    const marketing = await call('POST', '/api/auth/login', { body: { email: `marketing@${DOMAIN}`, password: 'demo12345', clientType: 0 } });
    expect(marketing.status).toBe(200);
    expect(marketing.body.userType).toBe('marketing');
    expect(res.body.marketing.email).toBe(`marketing@${DOMAIN}`);
    expect((await call('GET', '/api/promocode/', { token: marketing.body.accessToken })).status).toBe(200);
    const director = await call('POST', '/api/auth/login', { body: { email: `director@${DOMAIN}`, password: 'demo12345', clientType: 0 } });
    expect(director.status).toBe(200);
    expect(director.body.userType).toBe('director');
    const agentLogin = await call('POST', '/api/auth/login', { body: { email: `agent2.1@${DOMAIN}`, password: 'demo12345', clientType: 0 } });
    expect(agentLogin.body.userType).toBe('agent');
    const managers = (await call('GET', '/api/user/directorChildManagers', { token: director.body.accessToken })).body;
    expect(managers).toHaveLength(2);

    // every history row is on its own user's MC setting, in its team, in the last 30 days
    const users = `(select id from users where email like '%@${DOMAIN}')`;
    expect(await count(shard, `select count(*) n from call_history where user_id in ${users}`)).toBe(1400);
    expect(
      await count(
        shard,
        `select count(*) n from call_history h join mc_settings s on s.id = h.mc_setting_id where h.user_id in ${users} and s.user_id <> h.user_id`,
      ),
    ).toBe(0);
    expect(
      await count(
        shard,
        `select count(*) n from call_history h join users u on u.id = h.user_id where h.user_id in ${users} and h.team_id <> (case when u.user_type = 'manager' then u.id else u.parent_id end)`,
      ),
    ).toBe(0);
    const span = await one<{ lo: number; hi: number }>(shard, `select min(call_date) lo, max(call_date) hi from call_history where user_id in ${users}`);
    expect(span.hi).toBeLessThanOrEqual(Date.now());
    expect(span.lo).toBeGreaterThan(Date.now() - 31 * DAY_MS);
    // an agent's settings point at its manager's MCs
    expect(
      await count(
        shard,
        `select count(*) n from mc_settings s join users u on u.id = s.user_id join mc_settings p on p.id = s.parent_mc_id where u.email like '%@${DOMAIN}' and p.user_id <> u.parent_id`,
      ),
    ).toBe(0);

    // the history call reads it: the director picks manager 2
    const now = Date.now();
    const history = await call('POST', '/api/callHistory/getHistory', {
      token: director.body.accessToken,
      body: { usersList: [], mcList: [], phoneLogs: true, emailLogs: true, managerId: managers[1]._id, dateFrom: now - 30 * DAY_MS, dateTo: now + DAY_MS },
    });
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(700);

    // filters: numbered 1..n per team, their MCs are the team's
    expect(await count(shard, `select count(distinct "index") n from broker_filters where team_id in ${users}`)).toBe(40);
    expect(
      await count(
        shard,
        `select count(*) n from broker_filter_mcs m join broker_filters f on f.id = m.filter_id join mc_settings s on s.id = m.mc_id where f.team_id in ${users} and s.user_id <> f.team_id`,
      ),
    ).toBe(0);
    expect(await count(shard, `select count(*) n from filter_types where team_id in ${users}`)).toBe(10);

    // payments: confirmed ones counted once each, with distinct global numbers
    const ids = JSON.stringify((await shard.prepare(`select id from users where email like '%@${DOMAIN}'`).all<{ id: string }>()).results.map((u) => u.id));
    const payers = '(select value from json_each(?))';
    expect(await count(testEnv.DB, `select count(*) n from payments where payer_user_id in ${payers} and is_payment_confirmed = 1`, ids)).toBe(2);
    expect(await count(testEnv.DB, `select count(distinct global_index) n from payments where payer_user_id in ${payers}`, ids)).toBe(4);
    for (const other of allShards(testEnv).filter((s) => s !== 'DB')) expect(await count(d1Of(testEnv, other), 'select count(*) n from payments')).toBe(0);

    // links: the D1 row, the KV entry the redirect reads, and the redirect itself
    const link = await one<{ id: string; code: string; from: string }>(shard, `select id, code, "from" from links where user_id in ${users} limit 1`);
    // the entry names the link's company, so a KV hit needs no directory read (docs/decisions/0180-links-on-shards.md)
    expect(await testEnv.LINKS_KV.get(kvKey(link.code), 'json')).toEqual({ id: link.id, from: link.from, disabled: false, co: res.body.companyId });
    const redirect = await call('GET', `/s/${link.code}`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(link.from);

    // a second run changes nothing
    const before = await countRows('users');
    const again = await call('POST', '/api/dev/seed', { body: SMALL });
    expect(again.status).toBe(409);
    expect(await countRows('users')).toBe(before);

    // a second company under another domain seeds beside it (its payments' Idram numbers are its own)
    const other = await call('POST', '/api/dev/seed', { body: { ...SMALL, emailDomain: 'second-seed.example' } });
    expect(other.status).toBe(201);
    expect(await count(d1Of(testEnv, other.body.shard), "select count(*) n from users where email like '%@second-seed.example'")).toBeGreaterThan(0);
  });

  it('no statement binds more than the 100 parameters D1 allows', async () => {
    let most = 0;
    // the seeder queries through a D1 session (lib/db.ts): its statements are counted too
    const counting = (real: D1Database): D1Database =>
      new Proxy(real, {
        get(target, prop) {
          if (prop === 'withSession') return (constraint?: string) => counting(target.withSession(constraint) as unknown as D1Database);
          if (prop === 'prepare') {
            return (sql: string) => {
              const stmt = target.prepare(sql);
              const bind = stmt.bind.bind(stmt);
              Object.assign(stmt, {
                bind: (...args: unknown[]) => {
                  most = Math.max(most, args.length);
                  return bind(...args);
                },
              });
              return stmt;
            };
          }
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    // every database the seeder may write: the control plane and each shard
    const counted = Object.fromEntries(allShards(testEnv).map((name) => [name, counting(d1Of(testEnv, name))]));
    const ctx = createExecutionContext();
    const res = await devApp.fetch(
      new Request('http://localhost/api/dev/seed', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...SMALL, emailDomain: 'params.example', historyRowsPerTeam: 50, filtersPerTeam: 20 }),
      }),
      { ...testEnv, ...counted },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(201);
    expect(most).toBeGreaterThan(50);
    expect(most).toBeLessThanOrEqual(100);
  });

  it('bad sizes answer 400', async () => {
    for (const body of [{ teams: 0 }, { agentsPerTeam: -1 }, { historyRowsPerTeam: 'many' }, { emailDomain: 'no spaces.example' }, { password: '123' }]) {
      expect((await call('POST', '/api/dev/seed', { body })).status).toBe(400);
    }
  });
});
