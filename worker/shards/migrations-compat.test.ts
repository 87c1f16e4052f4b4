import { applyD1Migrations, createExecutionContext, type D1Migration, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../dev/index';
import type { Bindings } from '../env';

/**
 * The Worker against a shard one migration apart, as during a deploy (docs/decisions/0181): the
 * deploy migrates every shard before the new Worker goes live, so the running Worker meets shards
 * one migration ahead of its code, and a shard whose migration failed (the deploy stops there) or
 * was restored to before it stays one behind the others. Here the current Worker serves a company
 * on a shard that has an extra additive migration, and one on a shard without the newest
 * migration; every call the extension and the screens make works on both.
 */
const { TEST_MIGRATIONS, COMPAT_BEHIND, COMPAT_AHEAD } = env as unknown as {
  TEST_MIGRATIONS: D1Migration[];
  COMPAT_BEHIND: D1Database;
  COMPAT_AHEAD: D1Database;
};

/** What the next additive migration might do: new columns (with and without defaults), a table, an index, a trigger. */
const NEXT_ADDITIVE: D1Migration = {
  name: '9999_next_additive.sql',
  queries: [
    "ALTER TABLE `users` ADD `nickname` text DEFAULT '' NOT NULL",
    'ALTER TABLE `call_history` ADD `note` text',
    'ALTER TABLE `active_loads` ADD `weight_lbs` integer',
    'ALTER TABLE `broker_filters` ADD `rating` integer DEFAULT 0 NOT NULL',
    "ALTER TABLE `sessions` ADD `country` text DEFAULT '' NOT NULL",
    'CREATE TABLE `load_offers` (`id` text PRIMARY KEY NOT NULL, `load_id` text NOT NULL, `amount` integer NOT NULL)',
    'CREATE INDEX `call_history_note` ON `call_history` (`note`)',
    'CREATE TRIGGER `active_loads_offers_delete` AFTER DELETE ON `active_loads` BEGIN DELETE FROM `load_offers` WHERE load_id = OLD.id; END',
  ],
};

const variants = {
  'without the newest migration': async () => {
    await applyD1Migrations(COMPAT_BEHIND, TEST_MIGRATIONS.slice(0, -1));
    return COMPAT_BEHIND;
  },
  'with an extra additive migration': async () => {
    await applyD1Migrations(COMPAT_AHEAD, [...TEST_MIGRATIONS, NEXT_ADDITIVE]);
    return COMPAT_AHEAD;
  },
};

describe('the Worker against a shard one migration apart', () => {
  for (const [variant, prepare] of Object.entries(variants)) {
    it(`serves a company on a shard ${variant}`, { timeout: 120_000 }, async () => {
      const shardDb = await prepare();
      // new companies go to SHARD_3, which is that database
      const shifted = { ...(env as unknown as Bindings), SHARD_3: shardDb, SHARDS: 'SHARD_3' } as Bindings;
      const send = async (method: string, path: string, token?: string, body?: unknown) => {
        const ctx = createExecutionContext();
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await worker.fetch!(
          new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }) as never,
          shifted as never,
          ctx,
        );
        await waitOnExecutionContext(ctx);
        const text = await res.text();
        return { status: res.status, text, body: text ? JSON.parse(text) : null };
      };
      const ok = async (method: string, path: string, token?: string, body?: unknown) => {
        const res = await send(method, path, token, body);
        expect([`${method} ${path}`, res.status < 300 ? 'ok' : `${res.status} ${res.text.slice(0, 300)}`]).toEqual([`${method} ${path}`, 'ok']);
        return res.body;
      };

      const domain = variant.includes('without') ? 'behind.example' : 'ahead.example';
      const seeded = await ok('POST', '/api/dev/seed', undefined, {
        teams: 1,
        agentsPerTeam: 2,
        filtersPerTeam: 5,
        historyRowsPerTeam: 20,
        loadsPerAgent: 1,
        payments: 1,
        linksPerManager: 1,
        emailDomain: domain,
        password: 'demo12345',
      });
      expect(seeded.shard).toBe('SHARD_3');
      expect(await shardDb.prepare('select count(*) as n from users').first('n')).toBeGreaterThan(2);

      const login = (email: string, clientType: number) => ok('POST', '/api/auth/login', undefined, { email, password: 'demo12345', clientType });
      const manager = await login(seeded.managers[0].email, 0);
      const agent = await login(seeded.agents[0].email, 1);
      const agentMc = (await ok('GET', '/api/mcSettings', agent.accessToken))[0]._id;

      // the extension: sync, then logging
      for (const path of [
        '/api/subscription/status',
        `/api/user/${agent.userId}`,
        '/api/mcSettings',
        '/api/broker/minified',
        '/api/team/settings',
        '/api/team/contacts',
      ])
        await ok('GET', path, agent.accessToken);
      const at = Date.now();
      await ok('POST', '/api/callHistory/log', agent.accessToken, {
        clientId: `c-${at}`,
        mcSettingId: agentMc,
        kind: 'call',
        contact: '+13125550142',
        brokerName: 'TQL',
        callDate: at,
      });
      await ok('POST', '/api/activeLoad/add', agent.accessToken, {
        clientId: `l-${at}`,
        mcSettingId: agentMc,
        brokerName: 'Coyote',
        origin: 'Atlanta, GA',
        dest: 'Miami, FL',
        date: at,
      });
      await ok('POST', '/api/extension/health', agent.accessToken, { version: '1.2.0', layout: 'wide', rowsSeen: 40, unreadable: false, fields: {} });
      await ok('GET', '/api/activeLoad/my', agent.accessToken);

      // the screens: history, filters, loads, links, users, sessions
      const range = {
        usersList: [],
        mcList: [],
        phoneLogs: true,
        emailLogs: true,
        dateFrom: new Date(at - 7 * 86_400_000).toISOString(),
        dateTo: new Date(at + 86_400_000).toISOString(),
      };
      const history = await ok('POST', '/api/callHistory/getHistory', manager.accessToken, range);
      expect(history.length).toBeGreaterThan(0);
      const types = await ok('GET', '/api/user/filterOverrides', manager.accessToken);
      await ok('POST', '/api/broker/add', manager.accessToken, {
        updateFilterId: null,
        name: `Compat Freight ${domain}`,
        type: types[0]._id,
        comment: '',
        onlyCreator: false,
        allMC: true,
        mcList: [],
        usersList: [],
        onlyOnContacts: false,
        contacts: ['+13125550199'],
        newUsers: false,
        isVisible: true,
      });
      await ok('GET', '/api/broker/minified', agent.accessToken);
      await ok('POST', '/api/activeLoad/team', manager.accessToken, {});
      await ok('POST', '/api/link/generate', manager.accessToken, { from: 'https://example.com/rates' });
      await ok('GET', '/api/link', manager.accessToken);
      await ok('POST', '/api/user/register', manager.accessToken, {
        email: `new-agent@${domain}`,
        password: 'secret-pass-1',
        name: 'New Agent',
        phone: '',
        country: 'US',
      });
      await ok('GET', '/api/user/allTeam', manager.accessToken);
      await ok('GET', '/api/auth/sessions', manager.accessToken);
      await ok('POST', '/api/auth/logout', agent.accessToken);
    });
  }
});
