/** The board's health report. */
import type { HealthReportInput } from '../../../worker/extension/extension-health.schema';
import type { LoadBoard } from '../../../worker/history/boards';
import { isTransient } from './api';
import { apiFor, read, type Stored, update } from './store';

/** At most one report an hour from this browser and board (docs/decisions/0145-board-alarm.md). */
const HEALTH_EVERY_MS = 3_600_000;

/** When each board last reported; a number is a report from before Truckstop, DAT's. */
const sentTimes = (sent: Stored['healthSentAt']): Partial<Record<LoadBoard, number>> => (typeof sent === 'number' ? { dat: sent } : (sent ?? {}));

/**
 * Sends what the board could read of its page: counts only, never a row's content. The hour is
 * claimed per board before the call (two tabs of one board at once send one), and given back when
 * the server could not be reached.
 */
export async function sendHealth(report: HealthReportInput) {
  const board = report.board ?? 'dat';
  const claim = await update((s) => {
    const sent = sentTimes(s.healthSentAt);
    const last = sent[board];
    const due = !!s.token && (!last || Date.now() - last >= HEALTH_EVERY_MS);
    return { patch: due ? { healthSentAt: { ...sent, [board]: Date.now() } } : {}, result: { due, before: last } };
  });
  if (!claim.due) return;
  try {
    await apiFor(await read()).extension.health.$post({ json: report });
  } catch (err) {
    // a 401 has ended the session already (api.ts)
    if (isTransient(err)) await update((s) => ({ patch: { healthSentAt: { ...sentTimes(s.healthSentAt), [board]: claim.before } }, result: undefined }));
  }
}
