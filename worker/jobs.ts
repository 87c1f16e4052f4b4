import type { Bindings } from './env';
import { log } from './lib/observe';
import { sweepMails } from './mail/mail.queue';
import { sweepMoneyChanges } from './payments/settle';
import { runReminders } from './subscriptions/reminders';
import { runVettingDaily, runVettingQueue } from './vetting/vetting.service';

/** The Cron Triggers of wrangler.toml, by job. */
export const CRONS = {
  reminders: '0 6 * * *',
  mailSweep: '*/5 * * * *',
  /** Broker vetting: the daily refresh, and the first checks and retries (docs/decisions/0166-fmcsa-gate-and-budget.md). */
  vettingDaily: '0 5 * * *',
  vettingQueue: '*/10 * * * *',
} as const;

const JOBS: Record<string, (env: Bindings, now: Date) => Promise<Record<string, number>>> = {
  [CRONS.reminders]: (env, now) => runReminders(env, now),
  // the mail sweeper, and the money changes whose subscription change has not landed (payments/settle.ts)
  [CRONS.mailSweep]: async (env, now) => ({ ...(await sweepMails(env, now.getTime())), ...(await sweepMoneyChanges(env, now)) }),
  [CRONS.vettingDaily]: (env, now) => runVettingDaily(env, now),
  [CRONS.vettingQueue]: (env, now) => runVettingQueue(env, now),
};

/**
 * The `scheduled` handler: runs the job of the cron that fired, as of the controller's
 * `scheduledTime` (deployed, Cloudflare's schedule). Locally `GET /api/dev/scheduled?cron=…&now=…`
 * (worker/dev/dev.routes.ts, under `npm start` and `npm run dev`) runs the same handler with `now`
 * as the scheduled time, so a developer sees the 7/3/1/0-day reminders without waiting days.
 * Without a cron every job runs.
 */
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

/** Whether `cron` names a job (the development route refuses others with 400). */
export const isJobCron = (cron: string) => cron in JOBS;
