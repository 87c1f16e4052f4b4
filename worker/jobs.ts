import type { Bindings } from './env';
import { log } from './lib/observe';
import { sweepMails } from './mail/mail.queue';
import { runReminders } from './subscriptions/reminders';

/** The Cron Triggers of wrangler.toml, by job. */
export const CRONS = {
  reminders: '0 6 * * *',
  mailSweep: '*/5 * * * *',
} as const;

const JOBS: Record<string, (env: Bindings, now: Date) => Promise<Record<string, number>>> = {
  [CRONS.reminders]: (env, now) => runReminders(env, now),
  [CRONS.mailSweep]: (env, now) => sweepMails(env, now.getTime()),
};

/**
 * The `scheduled` handler: runs the job of the cron that fired, as of the controller's
 * `scheduledTime`. Locally wrangler's `/cdn-cgi/handler/scheduled?cron=…&time=…` (under `npm
 * start` and `npm run dev`) sets both, so `time` moves the job's clock (the reminders' days left);
 * deployed, the time is Cloudflare's schedule. Without a cron (the bare local URL) every job runs.
 */
export async function runScheduled(controller: Pick<ScheduledController, 'cron' | 'scheduledTime'>, env: Bindings): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const names = controller.cron ? [controller.cron] : Object.keys(JOBS);
  for (const cron of names) {
    const job = JOBS[cron];
    if (!job) {
      log('warn', { event: 'job.unknown_cron', cron });
      continue;
    }
    const started = Date.now();
    try {
      const result = await job(env, now);
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
}
