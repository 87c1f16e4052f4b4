import { describe, expect, it } from 'vitest';
import { mails } from '../db/schema';
import { allShards, shardDb } from '../lib/d1';
import { randomId } from '../lib/ids';
import { call, createUser, testEnv } from '../test/helpers';
import { allPages } from '../test/paging';
import type { FailedMailDto } from './mail.schema';

/** GET /api/mail/failed/page (docs/decisions/0187-paged-fan-out.md): failed mails a page at a time, over every database. */
describe('failed mails a page at a time', () => {
  it('pages every database, newest failure first, each once, with the total', async () => {
    const tag = `fm${randomId().toLowerCase().slice(0, 8)}`;
    const admin = await createUser('admin');
    const names = allShards(testEnv);
    expect(names.length).toBeGreaterThanOrEqual(4);
    const base = Date.UTC(2026, 0, 1);
    const made: { id: string; failedAt: number }[] = [];
    for (let n = 0; n < 14; n++) {
      const id = randomId();
      const failedAt = base + (n % 5 === 0 ? 0 : ((n * 5) % 14) * 1000);
      made.push({ id, failedAt });
      await shardDb(testEnv, names[n % names.length]!)
        .insert(mails)
        .values({
          id,
          kind: 'verify',
          to: `to${n}@${tag}.example`,
          subject: `Subject ${n}`,
          text: '',
          html: '',
          status: n === 13 ? 'sent' : 'failed',
          idempotencyKey: id,
          attempts: 5,
          lastError: 'refused',
          createdAt: new Date(base - 1000),
          nextAttemptAt: new Date(base),
          failedAt: new Date(failedAt),
        });
    }
    const expected = made
      .slice(0, 13)
      .sort((a, b) => b.failedAt - a.failedAt || (a.id < b.id ? 1 : -1))
      .map((m) => m.id);
    for (const limit of [1, 4, 13]) {
      const { items, pages } = await allPages<FailedMailDto>(admin.token, `/api/mail/failed/page?q=${tag}`, limit);
      expect(items.map((m) => m._id)).toEqual(expected);
      for (const page of pages) expect(page.total).toBe(13);
    }
    // the whole list has the same mails
    const whole = (await call('GET', '/api/mail/failed', { token: admin.token })).body.mails as FailedMailDto[];
    expect(
      whole
        .filter((m) => m.to.endsWith(`@${tag}.example`))
        .map((m) => m._id)
        .sort(),
    ).toEqual([...expected].sort());
    const manager = await createUser('manager');
    expect((await call('GET', '/api/mail/failed/page', { token: manager.token })).status).toBe(403);
  });
});
