import type { Bindings } from './env';
import { archiveSettings, runHistoryArchive } from './history/archive-job';
import { allShards, d1Of } from './lib/d1';
import { log } from './lib/observe';
import { sweepMails } from './mail/mail.queue';
import { sweepMoneyChanges } from './payments/money-sweep';
import { runReminders } from './subscriptions/reminders';
import { runVettingDaily, runVettingQueue } from './vetting/vetting.service';

export const CRONS = {
  reminders: '0 6 * * *',
  mailSweep: '*/5 * * * *',
  /** Broker vetting: the daily refresh, and the first checks and retries (docs/decisions/0166-fmcsa-gate-and-budget.md). */
  vettingDaily: '0 5 * * *',
  vettingQueue: '*/10 * * * *',
  /** Contact History's months past the hot window to R2 (docs/decisions/0171-history-retention-r2.md). */
  historyArchive: '30 3 * * *',
} as const;

/** `DB` and every shard; the archive's R2 keys name none, so it outlives a company's moves. */
export const historyDatabases = (env: Bindings): { name: string; db: D1Database }[] => allShards(env).map((name) => ({ name, db: d1Of(env, name) }));

/** A night's archive run may take this long (a Cron Trigger's run has 15 minutes); the next night goes on. */
const ARCHIVE_RUN_MS = 10 * 60_000;

async function archiveHistory(env: Bindings, now: Date): Promise<Record<string, number>> {
  const { hotDays } = archiveSettings(env);
  const deadline = Date.now() + ARCHIVE_RUN_MS;
  const total: Record<string, number> = { databases: 0, teams: 0, months: 0, rows: 0, written: 0, skipped: 0, failed: 0, more: 0 };
  for (const { name, db } of historyDatabases(env)) {
    const result = await runHistoryArchive(db, env.HISTORY_ARCHIVE, { now: now.getTime(), hotDays, deadline, database: name });
    total.databases!++;
    for (const [key, value] of Object.entries(result)) total[key] = (total[key] ?? 0) + value;
  }
  return total;
}

const JOBS: Record<string, (env: Bindings, now: Date) => Promise<Record<string, number>>> = {
  [CRONS.reminders]: (env, now) => runReminders(env, now),
  // the mail sweeper, and the money changes whose subscription change has not landed (payments/settle.ts)
  [CRONS.mailSweep]: async (env, now) => ({ ...(await sweepMails(env, now.getTime())), ...(await sweepMoneyChanges(env, now)) }),
  [CRONS.vettingDaily]: (env, now) => runVettingDaily(env, now),
  [CRONS.vettingQueue]: (env, now) => runVettingQueue(env, now),
  [CRONS.historyArchive]: archiveHistory,
};

/** Locally `GET /api/dev/scheduled?cron=…&now=…` runs the same handler. Without a cron every job runs. */
export async function runScheduled(
  controller: Pick<ScheduledController, 'cron' | 'scheduledTime'>,
  env: Bindings,
): Promise<Record<string, Record<string, number>>> {
  const now = new Date(controller.scheduledTime);
  const names = controller.cron ? [controller.cron] : Object.keys(JOBS);
  const results: Record<string, Record<string, number>> = {};
  for (const cron of names) {
    const job = JOBS[cron];
    if (!job) {
      log('warn', { event: 'job.unknown_cron', cron });
      continue;
    }
    const started = Date.now();
    try {
      const result = await job(env, now);
      results[cron] = result;
      log('info', { event: 'job', cron, at: now.toISOString(), durationMs: Date.now() - started, ...result });
    } catch (err) {
      log('error', {
        event: 'job.failed',
        cron,
        at: now.toISOString(),
        error: { message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined },
      });
      // the runtime records the failed run (and retries nothing): the next run picks up what this one missed
      throw err;
    }
  }
  return results;
}

export const isJobCron = (cron: string) => cron in JOBS;
