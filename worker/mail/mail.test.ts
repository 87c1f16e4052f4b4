import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sendPasswordHash } from '../auth/auth.service';
import { mails, users } from '../db/schema';
import worker from '../index';
import { CRONS } from '../jobs';
import { randomId } from '../lib/ids';
import { call, control, createUser, everyDb, testEnv } from '../test/helpers';
import { order, pay } from '../test/idram';
import { SWEEP_AFTER_MS } from './mail.queue';

/**
 * Mail delivery as deployed: the mail row written with its cause, the real local queue with its
 * retries and dead-letter queue, and the Resend provider talking HTTP to a stub of Resend's API on
 * the loopback address (scripts/mail-stub.mjs, started by vitest.config.ts), which the tests tell
 * to refuse (503), reject (422) or accept the mails of one recipient domain.
 */
const STUB = (testEnv as unknown as { MAIL_STUB_URL: string }).MAIL_STUB_URL;
const DAY = 86_400_000;

interface StubStats {
  attempts: number;
  refused: number;
  rejected: number;
  replays: number;
  deliveries: { to: string; subject: string; key: string | null }[];
}

const stub = {
  mode: async (domain: string, mode: 'accept' | 'refuse' | 'reject') => {
    const res = await fetch(`${STUB}/control`, { method: 'POST', body: JSON.stringify({ domain, mode }) });
    expect(res.status).toBe(200);
  },
  stats: async (domain: string): Promise<StubStats> => (await fetch(`${STUB}/deliveries?domain=${domain}`)).json(),
};

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const mailsOf = async (emails: string[]) => (await Promise.all(everyDb().map(({ db }) => db.select().from(mails).where(inArray(mails.to, emails))))).flat();

/** Runs the Worker's `scheduled` handler as the Cron Trigger would. */
async function cron(expression: string, time: number) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: expression, scheduledTime: time }), testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** A password reset, a receipt and a reminder for three users of `domain`; answers their addresses. */
async function makeThreeMails(domain: string) {
  const resetUser = await createUser('manager', { email: `reset-${randomId(6).toLowerCase()}@${domain}` });
  const payer = await createUser('manager', { email: `payer-${randomId(6).toLowerCase()}@${domain}` });
  const reminded = await createUser('agent', { email: `remind-${randomId(6).toLowerCase()}@${domain}`, subscriptionDays: null });
  // ends in 3 days (2.5 days and a half on the job's clock, well inside the 3-day threshold)
  const now = Date.now();
  await reminded.db
    .update(users)
    .set({ subscriptionEndDate: new Date(now + 2.5 * DAY) })
    .where(eq(users.id, reminded.id));

  expect((await call('POST', '/api/auth/sendPasswordHash', { body: { email: resetUser.email } })).status).toBe(200);
  await pay(await order(payer, { amount: 1 }));
  await cron(CRONS.reminders, now);
  return [resetUser.email, payer.email, reminded.email];
}

describe('mail delivery through the queue (decision 0017)', () => {
  it('a reset, a receipt and a reminder made during a provider outage each reach the person exactly once after it recovers, 3 rounds', async () => {
    const figures: { round: number; made: number; refusedDuringOutage: number; delivered: number; duplicates: number; replays: number }[] = [];
    for (let round = 1; round <= 3; round++) {
      const domain = `outage-${round}-${randomId(6).toLowerCase()}.test`;
      await stub.mode(domain, 'refuse');
      const emails = await makeThreeMails(domain);

      // each mail row was written with its cause, and each was tried and refused at least once
      const rows = await mailsOf(emails);
      expect(rows.map((r) => r.kind).sort()).toEqual(['receipt', 'reminder', 'reset']);
      await until(
        'a refused try of each mail',
        () => mailsOf(emails),
        (rs) => rs.every((r) => r.attempts >= 1 && r.lastError?.startsWith('503')),
      );
      const during = await stub.stats(domain);
      expect(during.deliveries).toHaveLength(0);
      expect((await mailsOf(emails)).every((r) => r.status === 'pending')).toBe(true);

      await stub.mode(domain, 'accept');
      const after = await until(
        'the three deliveries',
        () => stub.stats(domain),
        (s) => s.deliveries.length >= 3,
      );
      // a while longer: nothing arrives twice
      await new Promise((r) => setTimeout(r, 3000));
      const final = await stub.stats(domain);
      expect(final.deliveries).toHaveLength(3);
      expect(new Set(final.deliveries.map((d) => d.to))).toEqual(new Set(emails));
      expect(new Set(final.deliveries.map((d) => d.key)).size).toBe(3);
      const subjects = final.deliveries.map((d) => d.subject).sort();
      expect(subjects[0]).toBe('Password recovery');
      expect(subjects[1]).toMatch(/^Receipt for your FreightDesk order #\d+$/);
      expect(subjects[2]).toMatch(/^Your FreightDesk subscription ends in [23] days$/);
      const sent = await mailsOf(emails);
      expect(sent.every((r) => r.status === 'sent' && r.sentAt && r.text === '' && r.html === '')).toBe(true);
      figures.push({
        round,
        made: rows.length,
        refusedDuringOutage: during.refused,
        delivered: final.deliveries.length,
        duplicates: final.deliveries.length - new Set(final.deliveries.map((d) => d.key)).size + final.replays,
        replays: final.replays,
      });
      expect(after.deliveries.length).toBe(3);
    }
    console.log(`[outage figures] ${JSON.stringify(figures)}`);
    expect(figures.reduce((n, f) => n + f.duplicates, 0)).toBe(0);
  }, 180_000);

  it("a send that always fails ends in the dead-letter state and on the admin's list; Resend delivers it once", async () => {
    const admin = await createUser('admin');
    const manager = await createUser('manager');
    const domain = `down-${randomId(6).toLowerCase()}.test`;
    await stub.mode(domain, 'refuse');
    const user = await createUser('agent', { email: `lost-${randomId(6).toLowerCase()}@${domain}` });
    expect((await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } })).status).toBe(200);

    // 1 try and 3 retries (1, 2 and 4 s apart), then the dead-letter queue marks it failed
    const [failed] = await until(
      'the dead-letter state',
      () => mailsOf([user.email]),
      (rs) => rs[0]?.status === 'failed',
      60_000,
    );
    expect(failed!.attempts).toBe(4);
    expect(failed!.lastError).toMatch(/^503 Service unavailable/);
    expect((await stub.stats(domain)).refused).toBe(4);

    const list = await call('GET', '/api/mail/failed', { token: admin.token });
    expect(list.status).toBe(200);
    const item = list.body.mails.find((m: { _id: string }) => m._id === failed!.id);
    expect(item).toMatchObject({ kind: 'reset', to: user.email, subject: 'Password recovery', attempts: 4, lastError: expect.stringMatching(/^503/) });
    // the list never shows a body (a reset link)
    expect(JSON.stringify(list.body)).not.toContain('passwordRecovery');
    expect((await call('GET', '/api/mail/failed', { token: manager.token })).status).toBe(403);
    expect((await call('POST', `/api/mail/${failed!.id}/resend`, { token: manager.token })).status).toBe(403);
    expect((await call('GET', '/api/mail/failed')).status).toBe(401);

    // the provider is back; the admin resends: delivered once, and a second Resend is refused
    await stub.mode(domain, 'accept');
    const resent = await Promise.all([1, 2, 3].map(() => call('POST', `/api/mail/${failed!.id}/resend`, { token: admin.token })));
    expect(resent.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(resent.find((r) => r.status === 409)!.body.message).toBe('This mail is not failed: it was already resent');
    await until(
      'the resent mail',
      () => stub.stats(domain),
      (s) => s.deliveries.length === 1,
    );
    await new Promise((r) => setTimeout(r, 2000));
    expect((await stub.stats(domain)).deliveries).toHaveLength(1);
    expect((await mailsOf([user.email]))[0]!.status).toBe('sent');
    expect((await call('GET', '/api/mail/failed', { token: admin.token })).body.mails.some((m: { _id: string }) => m._id === failed!.id)).toBe(false);
    expect((await call('POST', '/api/mail/nope/resend', { token: admin.token })).status).toBe(404);
  }, 90_000);

  it('a mail the provider rejects for good (422) fails at once, without retries', async () => {
    const domain = `bad-${randomId(6).toLowerCase()}.test`;
    await stub.mode(domain, 'reject');
    const user = await createUser('agent', { email: `bad-${randomId(6).toLowerCase()}@${domain}` });
    expect((await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } })).status).toBe(200);
    const [row] = await until(
      'the failed state',
      () => mailsOf([user.email]),
      (rs) => rs[0]?.status === 'failed',
    );
    expect(row!.attempts).toBe(1);
    expect(row!.lastError).toMatch(/^422 The to address is invalid/);
    expect((await stub.stats(domain)).rejected).toBe(1);
  });

  it('no mail row is lost when the Worker dies between the write and the queue send: the sweeper sends it, once', async () => {
    const domain = `killed-${randomId(6).toLowerCase()}.test`;
    const user = await createUser('agent', { email: `killed-${randomId(6).toLowerCase()}@${domain}` });
    // the batch lands, then the Worker is gone before its queue message leaves
    const dying = {
      ...testEnv,
      MAIL_QUEUE: {
        send: () => Promise.reject(new Error('the isolate was killed')),
        sendBatch: () => Promise.reject(new Error('the isolate was killed')),
      } as unknown as Queue,
    };
    await sendPasswordHash(dying, control, user.email);
    const [row] = await mailsOf([user.email]);
    expect(row).toMatchObject({ status: 'pending', attempts: 0, kind: 'reset' });
    await new Promise((r) => setTimeout(r, 2500));
    expect((await stub.stats(domain)).attempts).toBe(0);

    // a sweep before the mail is overdue leaves it; the one after sends its message again
    await cron(CRONS.mailSweep, Date.now());
    await new Promise((r) => setTimeout(r, 2500));
    expect((await stub.stats(domain)).attempts).toBe(0);
    await cron(CRONS.mailSweep, Date.now() + SWEEP_AFTER_MS + 60_000);
    await until(
      'the swept mail',
      () => stub.stats(domain),
      (s) => s.deliveries.length === 1,
    );
    // more sweeps find nothing to do
    await cron(CRONS.mailSweep, Date.now() + 2 * SWEEP_AFTER_MS);
    await new Promise((r) => setTimeout(r, 2500));
    const stats = await stub.stats(domain);
    expect(stats.deliveries).toHaveLength(1);
    expect(stats.attempts).toBe(1);
    expect((await mailsOf([user.email]))[0]!.status).toBe('sent');
  }, 60_000);

  it('the dev outbox keeps every mail at once, as design.md says, whatever the provider', async () => {
    const user = await createUser('agent', { email: `outbox-${randomId(6).toLowerCase()}@outbox.test` });
    expect((await call('POST', '/api/auth/sendPasswordHash', { body: { email: user.email } })).status).toBe(200);
    const res = await call('GET', '/api/dev/outbox');
    expect(res.body[0]).toMatchObject({ to: user.email, subject: 'Password recovery' });
    expect(Object.keys(res.body[0]).sort()).toEqual(['date', 'html', 'subject', 'text', 'to']);
    expect(res.body[0].text).toMatch(/\/passwordRecovery\/[0-9a-f]{64}/);
  });
});
