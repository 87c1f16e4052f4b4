import { describe, expect, it } from 'vitest';
import { activeLoads, callHistory } from '../db/schema';
import { COMMON_MESSAGES } from '../lib/common-messages';
import { allShards, shardDb } from '../lib/d1';
import { inJson } from '../lib/db';
import { randomId } from '../lib/ids';
import { call, control, errorBody, testEnv } from '../test/helpers';
import { companyUserIds, mcOf, otherShard, placementOf, SEED_PASSWORD, seedCompany } from '../test/shards';
import { advanceMove, isFinished, loadMove, startCompanyMove } from './move';

interface Client {
  userId: string;
  token: string;
  mc: string;
  isAgent: boolean;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The extension's traffic during moves: every agent and manager of a company logs calls and
 * active loads (each with its own client id, sent again with the same id after a 503, as the
 * extension's queue does) and syncs (its filters, MCs, team settings and contacts, subscription),
 * while the company moves from shard to shard and back. Every write lands exactly once; a write
 * refused meanwhile answers 503 with Retry-After and the moving message; no read fails.
 */
describe('moving a company under live traffic', () => {
  it('loses, duplicates and drops nothing while 22 clients write and sync through three moves', { timeout: 600_000 }, async () => {
    const company = await seedCompany('move-live.example', { teams: 2, agentsPerTeam: 10, historyRowsPerTeam: 300, filtersPerTeam: 20 });
    const logins = [...company.managers, ...company.agents];
    expect(logins.length).toBeGreaterThanOrEqual(20);
    const clients: Client[] = [];
    for (const email of logins) {
      const res = await call('POST', '/api/auth/login', { body: { email, password: SEED_PASSWORD, clientType: 1 } });
      expect(res.status, res.text).toBe(200);
      clients.push({
        userId: res.body.userId,
        token: res.body.accessToken,
        mc: await mcOf(company.shard, res.body.userId),
        isAgent: res.body.userType === 'agent',
      });
    }

    const logged = new Set<string>();
    const loads = new Set<string>();
    const problems: string[] = [];
    let refused = 0;
    let reads = 0;

    /** Sends one write until it lands: a 503 must be the moving answer, and the same client id goes again. */
    const write = async (client: Client, path: string, body: Record<string, unknown>, landed: Set<string>) => {
      for (let tries = 0; tries < 2000; tries++) {
        const res = await call('POST', path, { token: client.token, body });
        if (res.status === 200 || res.status === 201) {
          landed.add(body.clientId as string);
          return;
        }
        if (res.status !== 503) {
          problems.push(`${path} ${res.status} ${res.text.slice(0, 200)}`);
          return;
        }
        refused++;
        if (res.headers.get('retry-after') !== '30' || JSON.stringify(res.body) !== JSON.stringify(errorBody(COMMON_MESSAGES.companyMoving)))
          problems.push(`503 without the moving answer: ${res.headers.get('retry-after')} ${res.text}`);
        await pause(100);
      }
      problems.push(`${path} never landed`);
    };
    const sync = async (client: Client) => {
      const paths = ['/api/subscription/status', '/api/mcSettings', '/api/broker/minified', '/api/team/settings', '/api/team/contacts'];
      const answers = await Promise.all(paths.map((p) => call('GET', p, { token: client.token })));
      answers.forEach((res, i) => {
        reads++;
        if (res.status !== 200 && res.status !== 304) problems.push(`GET ${paths[i]} ${res.status} ${res.text.slice(0, 200)}`);
      });
    };
    const work = async (client: Client, running: () => boolean) => {
      for (let round = 0; running() || round < 3; round++) {
        const at = Date.now();
        await write(
          client,
          '/api/callHistory/log',
          {
            clientId: randomId(),
            mcSettingId: client.mc,
            kind: round % 2 ? 'email' : 'call',
            contact: round % 2 ? 'dispatch@tql.example' : '+13125550142',
            brokerName: `Broker ${round}`,
            callDate: at,
          },
          logged,
        );
        if (round % 3 === 0)
          await write(
            client,
            '/api/activeLoad/add',
            { clientId: randomId(), mcSettingId: client.mc, brokerName: 'Coyote Logistics', origin: 'Atlanta, GA', dest: 'Miami, FL', date: at },
            loads,
          );
        await sync(client);
      }
    };

    let from = company.shard;
    const route = [otherShard(from), otherShard(from, [otherShard(from)]), from];
    for (const to of route) {
      const move = await startCompanyMove(testEnv, control, company.companyId, to);
      let finished = false;
      const traffic = Promise.all(clients.map((c) => work(c, () => !finished)));
      // the move in small pieces, as its Durable Object runs it, while the clients work (no timer
      // between pieces: workerd fires none while the isolate is busy with the clients' calls)
      let ended = await loadMove(control, move.id);
      while (!isFinished(ended)) {
        ended = await advanceMove(testEnv, move.id, { budget: 20, page: 50 });
      }
      finished = true;
      await traffic;
      expect([ended.step, ended.error]).toEqual(['done', null]);
      expect(await placementOf(company.companyId)).toMatchObject({ shard: to, state: 'active' });
      from = to;
    }

    expect(problems).toEqual([]);
    expect(refused, 'writes were refused while the company moved').toBeGreaterThan(0);
    expect(reads).toBeGreaterThan(clients.length * 5 * 3);
    // every write exactly once, on the shard the company ended on, nowhere else
    const userIds = await companyUserIds(from, company.companyId);
    for (const shard of allShards(testEnv)) {
      const rows = await shardDb(testEnv, shard).select({ clientId: callHistory.clientId }).from(callHistory).where(inJson(callHistory.userId, userIds));
      const loadRows = await shardDb(testEnv, shard).select({ clientId: activeLoads.clientId }).from(activeLoads).where(inJson(activeLoads.userId, userIds));
      const mine = rows.filter((r) => logged.has(r.clientId));
      const myLoads = loadRows.filter((r) => loads.has(r.clientId));
      if (shard !== from) {
        expect([shard, rows.length, loadRows.length]).toEqual([shard, 0, 0]);
        continue;
      }
      expect(mine.length).toBe(logged.size);
      expect(new Set(mine.map((r) => r.clientId)).size).toBe(logged.size);
      expect(myLoads.length).toBe(loads.size);
      expect(new Set(myLoads.map((r) => r.clientId)).size).toBe(loads.size);
    }
  });
});
