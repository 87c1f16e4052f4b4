import { it } from 'vitest';
import { call, createUser, type TestUser } from '../test/helpers';

const use = (who: TestUser, promoName: string) => call('POST', '/api/promocode/usePromoCode', { token: who.token, body: { promoName } });
it('timing', { timeout: 300_000 }, async () => {
  const t0 = Date.now();
  const admin = await createUser('admin');
  const racers = await Promise.all(Array.from({ length: 50 }, () => createUser('agent', { subscriptionDays: null })));
  const t1 = Date.now();
  const times: number[] = [];
  for (const maxUses of [1, 50]) {
    const name = `T${Math.random().toString(36).slice(2, 10)}`.toUpperCase();
    await call('POST', '/api/promocode/create', { token: admin.token, body: { name, effectType: 'freeMonths', effectValue: 1, maxUses, isPublic: true } });
    const s = Date.now();
    await Promise.all(racers.map((u) => use(u, name)));
    times.push(Date.now() - s);
  }
  console.log(JSON.stringify({ users: t1 - t0, rounds: times }));
});
