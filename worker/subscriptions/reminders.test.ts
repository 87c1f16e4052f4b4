import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptionReminders, users } from '../db/schema';
import worker from '../index';
import { mailMoment } from '../lib/mailer';
import { call, createUser, getUser, type TestUser, testEnv } from '../test/helpers';
import { mailsTo } from '../test/idram';
import { thresholdFor } from './reminders';

const DAY = 86_400_000;

/** Runs the Worker's `scheduled` handler as the Cron Trigger would, at `time`. */
async function cron(time: number) {
  const controller = createScheduledController({ scheduledTime: time, cron: '0 6 * * *' });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, testEnv, ctx);
  await waitOnExecutionContext(ctx);
}

const reminders = async (who: TestUser) => (await mailsTo(who.email)).filter((m) => m.subject.startsWith('Your FreightDesk subscription ends'));
const digests = async (who: TestUser) => (await mailsTo(who.email)).filter((m) => /agents?'s? FreightDesk subscriptions? ends? soon$/.test(m.subject));
const rowsOf = (who: TestUser) => who.db.select().from(subscriptionReminders).where(eq(subscriptionReminders.userId, who.id));
const setEnd = (who: TestUser, end: Date | null) => who.db.update(users).set({ subscriptionEndDate: end }).where(eq(users.id, who.id));

/**
 * Today 06:00 on Yerevan's clock (UTC+4 all year), the jobs' "now" here. Days left are calendar
 * days on that clock, so an end "7.5 days" after a moment lands on day 7 or day 8 depending on
 * the hour; counted from 06:00 it is always day 7, whenever the suite runs.
 */
const YEREVAN_MS = 4 * 3_600_000;
const BASE = Math.floor((Date.now() + YEREVAN_MS) / DAY) * DAY - YEREVAN_MS + 6 * 3_600_000;

/** createUser, with the subscription's end counted from BASE rather than from now. */
async function userEnding(role: Parameters<typeof createUser>[0], options: NonNullable<Parameters<typeof createUser>[1]>) {
  const user = await createUser(role, options);
  if (typeof options.subscriptionDays === 'number') await setEnd(user, new Date(BASE + options.subscriptionDays * DAY));
  return user;
}

describe('the reminder thresholds', () => {
  it('each days-left value falls under the smallest threshold at or above it', () => {
    expect([8, 7, 6, 5, 4, 3, 2, 1, 0, -1].map(thresholdFor)).toEqual([null, 7, 7, 7, 7, 3, 3, 1, 0, null]);
  });

  it('mails write the end as a moment on Yerevan time (days left are 24-hour days)', () => {
    expect(mailMoment(new Date(Date.UTC(2027, 0, 21, 21, 30)))).toBe('22 Jan 2027, 01:30 Yerevan time');
  });
});

describe('the reminders job (decision 0119)', () => {
  it('mails 7, 3 and 1 days before and on the day it ends, each once however often the job runs', { timeout: 120_000 }, async () => {
    const start = BASE;
    // 7 days and 12 hours left at the first run
    const user = await userEnding('manager', { subscriptionDays: 7.5 });
    const end = (await getUser(user.id))!.subscriptionEndDate!;
    const seen: string[] = [];
    for (const [offsetDays, expected] of [
      [0, 'in 7 days'],
      [4, 'in 3 days'],
      [6, 'in 1 day'],
      [7, 'today'],
    ] as const) {
      const at = start + offsetDays * DAY;
      // the job twice, and twice at once: still one mail for the threshold
      await cron(at);
      await cron(at);
      await Promise.all([cron(at + 3_600_000), cron(at + 3_600_000)]);
      const mails = await reminders(user);
      expect(mails).toHaveLength(seen.length + 1);
      expect(mails[0]!.subject).toBe(`Your FreightDesk subscription ends ${expected}`);
      expect(mails[0]!.text).toContain(`ends ${expected}, on ${mailMoment(end)}`);
      expect(mails[0]!.text).toContain('/payment/');
      expect(mails[0]!.text).toContain('/profile/');
      seen.push(mails[0]!.subject);
    }
    // the days in between send nothing
    for (const offsetDays of [1, 2, 3, 5]) await cron(start + offsetDays * DAY);
    expect(await reminders(user)).toHaveLength(4);
    expect((await rowsOf(user)).map((r) => r.threshold).sort()).toEqual([0, 1, 3, 7]);
    // after the end: nothing more
    await cron(start + 8 * DAY);
    expect(await reminders(user)).toHaveLength(4);
  });

  it('a renewed subscription (a new end date) is reminded again; a late first run sends the threshold it is under', async () => {
    const now = BASE;
    const user = await userEnding('agent', { subscriptionDays: 5.5 });
    await cron(now);
    // 5 days left: the 7-day reminder, saying 5 days
    expect((await reminders(user)).map((m) => m.subject)).toEqual(['Your FreightDesk subscription ends in 5 days']);
    await setEnd(user, new Date(now + 7.2 * DAY));
    await cron(now);
    await cron(now);
    expect((await reminders(user)).map((m) => m.subject)).toEqual([
      'Your FreightDesk subscription ends in 7 days',
      'Your FreightDesk subscription ends in 5 days',
    ]);
  });

  it('no mail for users with the reminders off, an unverified e-mail, no end date, staff, deleted users, or ends further away', async () => {
    const now = BASE;
    const off = await userEnding('manager', { subscriptionDays: 2.5 });
    await off.db.update(users).set({ remindersEnabled: false }).where(eq(users.id, off.id));
    const unverified = await userEnding('manager', { subscriptionDays: 2.5, isEmailVerified: false });
    const none = await userEnding('manager', { subscriptionDays: null });
    const admin = await userEnding('admin', { subscriptionDays: 2.5 });
    const deleted = await userEnding('manager', { subscriptionDays: 2.5 });
    await deleted.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    const far = await userEnding('manager', { subscriptionDays: 9 });
    const expired = await userEnding('manager', { subscriptionDays: -0.5 });
    const on = await userEnding('manager', { subscriptionDays: 2.5 });
    await cron(now);
    for (const who of [off, unverified, none, admin, deleted, far, expired]) expect(await reminders(who), who.email).toEqual([]);
    expect(await reminders(on)).toHaveLength(1);
  });

  it("a manager gets one digest of its agents ending soon, not another team's, once", async () => {
    const now = BASE;
    const manager = await userEnding('manager', { subscriptionDays: 60 });
    const soon = await userEnding('agent', { parentId: manager.id, subscriptionDays: 0.5, name: 'Ani Soon' });
    const later = await userEnding('agent', { parentId: manager.id, subscriptionDays: 6.5, name: 'Aram Later' });
    const optedOut = await userEnding('agent', { parentId: manager.id, subscriptionDays: 3.5, name: 'Anna Quiet' });
    await optedOut.db.update(users).set({ remindersEnabled: false }).where(eq(users.id, optedOut.id));
    await userEnding('agent', { parentId: manager.id, subscriptionDays: 40 });
    const otherManager = await userEnding('manager', { subscriptionDays: 60 });
    const stranger = await userEnding('agent', { parentId: otherManager.id, subscriptionDays: 1.5, name: 'Other Team' });
    await cron(now);
    await cron(now);
    const [digest, ...more] = await digests(manager);
    expect(more).toEqual([]);
    expect(digest!.subject).toBe("3 of your agents' FreightDesk subscriptions end soon");
    // soonest first; the agent who turned its own mails off is still on its manager's list
    const lines = digest!.text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      `- Ani Soon (${soon.email}): ends today, on ${mailMoment((await getUser(soon.id))!.subscriptionEndDate!)}`,
      `- Anna Quiet (${optedOut.email}): ends in 3 days, on ${mailMoment((await getUser(optedOut.id))!.subscriptionEndDate!)}`,
      `- Aram Later (${later.email}): ends in 6 days, on ${mailMoment((await getUser(later.id))!.subscriptionEndDate!)}`,
    ]);
    expect(digest!.text).not.toContain(stranger.email);
    expect(await reminders(optedOut)).toEqual([]);
    expect(await reminders(soon)).toHaveLength(1);
    const [otherDigest] = await digests(otherManager);
    expect(otherDigest!.subject).toBe("An agent's FreightDesk subscription ends soon");
    expect(otherDigest!.text).toContain('Other Team');
    // a manager with the reminders off gets no digest
    const quietManager = await userEnding('manager', { subscriptionDays: 60 });
    await quietManager.db.update(users).set({ remindersEnabled: false }).where(eq(users.id, quietManager.id));
    await userEnding('agent', { parentId: quietManager.id, subscriptionDays: 1.5 });
    await cron(now);
    expect(await digests(quietManager)).toEqual([]);
  });
});

describe('PUT /api/user/update/reminders/{id}', () => {
  it('a user turns its own reminders off and on; the profile shows it; others cannot', async () => {
    const manager = await createUser('manager');
    const agent = await createUser('agent', { parentId: manager.id });
    const put = (who: TestUser, id: string, body: unknown) => call('PUT', `/api/user/update/reminders/${id}`, { token: who.token, body });
    expect((await call('GET', `/api/user/${manager.id}`, { token: manager.token })).body.remindersEnabled).toBe(true);
    expect(await put(manager, manager.id, { remindersEnabled: false })).toMatchObject({
      status: 200,
      body: { message: 'Reminders turned off', remindersEnabled: false },
    });
    expect((await call('GET', `/api/user/${manager.id}`, { token: manager.token })).body.remindersEnabled).toBe(false);
    expect((await getUser(manager.id))!.remindersEnabled).toBe(false);
    expect(await put(manager, manager.id, { remindersEnabled: true })).toMatchObject({ status: 200, body: { remindersEnabled: true } });

    // a manager does not choose its agent's mail; another team's user is not found
    expect(await put(manager, agent.id, { remindersEnabled: false })).toMatchObject({ status: 403 });
    expect(await put(await createUser('manager'), agent.id, { remindersEnabled: false })).toMatchObject({ status: 404, body: { message: 'User not found' } });
    expect((await getUser(agent.id))!.remindersEnabled).toBe(true);
    // the admin may, for support
    expect((await put(await createUser('admin'), agent.id, { remindersEnabled: false })).status).toBe(200);
    expect(await put(agent, agent.id, { remindersEnabled: 'no' })).toMatchObject({ status: 400, body: { message: 'remindersEnabled must be true or false' } });
    expect(await put(agent, agent.id, {})).toMatchObject({ status: 400 });
    expect((await call('PUT', `/api/user/update/reminders/${agent.id}`, { body: { remindersEnabled: true } })).status).toBe(401);
  });
});
