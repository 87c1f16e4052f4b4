import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { promoCodes, promoUses } from '../db/schema';
import { call, createUser, db, getUser, type TestUser } from '../test/helpers';

async function generate(who: TestUser, body: object) {
  const res = await call('POST', '/api/promocode/createRandomPublic', { token: who.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body.codes as { _id: string; name: string }[];
}

describe('creating and listing codes', () => {
  it('marketing generates unique unguessable codes that start free', async () => {
    const marketing = await createUser('marketing');
    const codes = await generate(marketing, { effectType: 'discountPercent', effectValue: 20, generateAmount: 50 });
    expect(codes).toHaveLength(50);
    expect(new Set(codes.map((c) => c.name)).size).toBe(50);
    for (const c of codes) expect(c.name).toMatch(/^[A-HJ-KM-NP-Z2-9]{10}$/);
    const free = (await call('GET', '/api/promocode/freeAndPublic', { token: marketing.token })).body.map((p: any) => p._id);
    for (const c of codes) expect(free).toContain(c._id);
  });

  it('validates the type and values with the screen\'s messages', async () => {
    const admin = await createUser('admin');
    const before = (await db.select().from(promoCodes)).length;
    expect((await call('POST', '/api/promocode/createRandomPublic', { token: admin.token, body: { effectValue: 1, generateAmount: 1 } })).body.message).toBe('Select the promo type');
    expect((await call('POST', '/api/promocode/createRandomPublic', { token: admin.token, body: { effectType: 'discountPercent', effectValue: 0, generateAmount: 1 } })).status).toBe(400);
    expect((await call('POST', '/api/promocode/createRandomPublic', { token: admin.token, body: { effectType: 'freeMonths', effectValue: 30, generateAmount: 1 } })).body.message).toBe('Free months are 1 to 24');
    expect((await db.select().from(promoCodes)).length).toBe(before);
  });

  it('only marketing and admin manage codes', async () => {
    for (const role of ['manager', 'agent', 'director'] as const) {
      const user = await createUser(role);
      expect((await call('POST', '/api/promocode/createRandomPublic', { token: user.token, body: { effectType: 'freeMonths', effectValue: 1, generateAmount: 1 } })).status).toBe(403);
      expect((await call('GET', '/api/promocode/', { token: user.token })).status).toBe(403);
    }
    const marketing = await createUser('marketing');
    expect((await call('POST', '/api/promocode/checkPromoCode', { token: marketing.token, body: { name: 'X' } })).status).toBe(403);
  });
});

describe('using codes', () => {
  it('free months are added at once; the code moves from free to finished', async () => {
    const marketing = await createUser('marketing');
    const [code] = await generate(marketing, { effectType: 'freeMonths', effectValue: 2, generateAmount: 1 });
    const user = await createUser('manager', { subscriptionDays: null });
    const checked = await call('POST', '/api/promocode/checkPromoCode', { token: user.token, body: { name: code!.name.toLowerCase() } });
    expect(checked.body).toMatchObject({ name: code!.name, effectType: 'freeMonths', effectValue: 2 });
    const used = await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: code!.name } });
    expect(used.status, used.text).toBe(200);
    const end = (await getUser(user.id))!.subscriptionEndDate!;
    const days = (end.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(57);
    expect(days).toBeLessThan(63);
    const finished = (await call('GET', '/api/promocode/finishedAndPublic', { token: marketing.token })).body.find((p: any) => p._id === code!._id);
    expect(finished.usedUsersList[0].user._id).toBe(user.id);
    const free = (await call('GET', '/api/promocode/freeAndPublic', { token: marketing.token })).body.map((p: any) => p._id);
    expect(free).not.toContain(code!._id);
    const again = await createUser('agent');
    expect((await call('POST', '/api/promocode/usePromoCode', { token: again.token, body: { promoName: code!.name } })).body.message).toBe('Promo code is finished');
  });

  it('a discount waits for the next payment and shows in its price; a user uses a code once', async () => {
    const admin = await createUser('admin');
    const multi = await call('POST', '/api/promocode/create', { token: admin.token, body: { name: `SAVE-${Date.now()}`, effectType: 'discountPercent', effectValue: 30, maxUses: 10 } });
    expect(multi.status).toBe(200);
    const user = await createUser('manager');
    expect((await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: multi.body.name } })).status).toBe(200);
    expect((await call('GET', '/api/payment/monthlyprice', { token: user.token })).body).toMatchObject({ discountPercent: 30, promoName: multi.body.name });
    const twice = await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: multi.body.name } });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('You have already used this promo code');
    const other = await call('POST', '/api/promocode/create', { token: admin.token, body: { name: `MORE-${Date.now()}`, effectType: 'discountPercent', effectValue: 10 } });
    expect((await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: other.body.name } })).status).toBe(409);
  });

  it('an assigned code is only for its user; unassigning makes it public again', async () => {
    const marketing = await createUser('marketing');
    const [code] = await generate(marketing, { effectType: 'freeMonths', effectValue: 1, generateAmount: 1 });
    const owner = await createUser('agent');
    const stranger = await createUser('agent');
    expect((await call('POST', '/api/promocode/assignUser', { token: marketing.token, body: { id: code!._id, email: owner.email } })).status).toBe(200);
    expect((await call('POST', '/api/promocode/checkPromoCode', { token: stranger.token, body: { name: code!.name } })).status).toBe(404);
    expect((await call('POST', '/api/promocode/checkPromoCode', { token: owner.token, body: { name: code!.name } })).status).toBe(200);
    expect((await call('POST', '/api/promocode/removeUserAssignment', { token: marketing.token, body: { id: code!._id } })).status).toBe(200);
    expect((await call('POST', '/api/promocode/checkPromoCode', { token: stranger.token, body: { name: code!.name } })).status).toBe(200);
  });

  it('50 users racing for a 1-use code: exactly one wins; for a 50-use code: all 50', async () => {
    const admin = await createUser('admin');
    const users = await Promise.all(Array.from({ length: 50 }, () => createUser('agent', { subscriptionDays: null })));
    for (const [maxUses, winners] of [[1, 1], [50, 50]] as const) {
      const code = await call('POST', '/api/promocode/create', { token: admin.token, body: { name: `RACE${maxUses}-${Date.now()}`, effectType: 'freeMonths', effectValue: 1, maxUses } });
      const answers = await Promise.all(users.map((u) => call('POST', '/api/promocode/usePromoCode', { token: u.token, body: { promoName: code.body.name } })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(winners);
      for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.message).toBe('Promo code is finished');
      const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, code.body._id));
      expect(row!.usedCount).toBe(winners);
      expect(await db.select().from(promoUses).where(eq(promoUses.promoId, code.body._id))).toHaveLength(winners);
    }
    const extended = (await Promise.all(users.map((u) => getUser(u.id)))).filter((u) => u!.subscriptionEndDate !== null);
    // every user won the 50-use code; exactly one also won the 1-use code
    expect(extended).toHaveLength(50);
  });

  it('only unused codes can be deleted', async () => {
    const admin = await createUser('admin');
    const [unused, used] = await generate(admin, { effectType: 'freeMonths', effectValue: 1, generateAmount: 2 });
    const user = await createUser('manager');
    await call('POST', '/api/promocode/usePromoCode', { token: user.token, body: { promoName: used!.name } });
    expect((await call('POST', '/api/promocode/delete', { token: admin.token, body: { id: used!._id } })).status).toBe(409);
    expect((await call('POST', '/api/promocode/delete', { token: admin.token, body: { id: unused!._id } })).status).toBe(200);
    expect((await call('POST', '/api/promocode/updatePromoListFreeStatus', { token: admin.token, body: { list: [{ _id: used!._id, isFree: false }] } })).body.message).toBe('1 promo codes updated');
  });
});
