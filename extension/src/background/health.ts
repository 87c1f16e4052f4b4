/** The board's health report. */
import type { HealthReportInput } from '../../../worker/extension/extension-health.schema';
import { isTransient } from './api';
import { patch, read, update, apiFor } from './store';

/** At most one report an hour from this browser (docs/decisions/0145-board-alarm.md). */
const HEALTH_EVERY_MS = 3_600_000;

/**
 * Sends what the board could read of DAT's page: counts only, never a row's content. The hour is
 * claimed before the call (two board tabs at once send one), and given back when the server could
 * not be reached.
 */
export async function sendHealth(report: HealthReportInput) {
  const claim = await update((s) => {
    const due = !!s.token && (!s.healthSentAt || Date.now() - s.healthSentAt >= HEALTH_EVERY_MS);
    return { patch: due ? { healthSentAt: Date.now() } : {}, result: { due, before: s.healthSentAt } };
  });
  if (!claim.due) return;
  try {
    await apiFor(await read()).extension.health.$post({ json: report });
  } catch (err) {
    // a 401 has ended the session already (api.ts)
    if (isTransient(err)) await patch({ healthSentAt: claim.before });
  }
}
