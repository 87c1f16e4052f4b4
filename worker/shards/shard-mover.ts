import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { log } from '../lib/observe';
import { advanceMove, isFinished } from './move';

/** Pause before the next piece after a failed one, growing with the failures in a row (at most a minute). */
const retryDelay = (failures: number) => Math.min(60_000, 1000 * 2 ** Math.max(0, failures - 1));

/** One alarm per piece of at most MOVE_BUDGET queries, so no invocation nears D1's 1,000 and a crash costs one piece. */
export class ShardMover extends DurableObject<Bindings> {
  async run(moveId: string): Promise<void> {
    await this.ctx.storage.put('move', moveId);
    await this.ctx.storage.setAlarm(Date.now());
  }

  async alarm(): Promise<void> {
    const moveId = await this.ctx.storage.get<string>('move');
    if (!moveId) return;
    const move = await advanceMove(this.env, moveId);
    if (isFinished(move)) {
      await this.ctx.storage.deleteAll();
      return;
    }
    const failures = (JSON.parse(move.progress) as { failures?: number }).failures ?? 0;
    if (failures) log('warn', { event: 'move.retry', move: moveId, step: move.step, failures, error: move.error });
    await this.ctx.storage.setAlarm(Date.now() + (failures ? retryDelay(failures) : 0));
  }

  ping(): 'ok' {
    return 'ok';
  }
}
