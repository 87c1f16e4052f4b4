import { DurableObject } from 'cloudflare:workers';
import { lt, sql } from 'drizzle-orm';
import { linkClickFlushes, linkClickStats, links } from '../db/schema';
import type { Bindings } from '../env';
import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, isUniqueViolation, runBatch } from '../lib/db';

/** One flush of clicks for one link: the total and the per-day, per-dimension counts. */
export interface ClickBatch {
  /** Random per flush, kept when the flush is retried, so D1 applies it once. */
  id: string;
  linkId: string;
  clicks: number;
  /** `${day}|${dimension}|${value}` -> count */
  stats: Record<string, number>;
}

/** Applied flush ids are kept this long; retries come within seconds. */
const KEEP_FLUSH_IDS_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Exact click counting, one object per link: calls to one object run one at a time, so the
 * flushes of every isolate land in D1 one after another, each as one batch (the flush id, the
 * link's total and its stats rows together: D1 runs a batch as one transaction). A flush that is
 * sent again after a lost answer fails on its id and adds nothing.
 */
export class ClickCounter extends DurableObject<Bindings> {
  private lastPrune = 0;

  /** Adds one flush; answers false when that flush had already been applied. */
  async add(batch: ClickBatch): Promise<boolean> {
    const db = createDb(this.env.DB);
    const now = Date.now();
    const statements: BatchItem<'sqlite'>[] = [
      db.insert(linkClickFlushes).values({ id: batch.id, at: new Date(now) }),
      db
        .update(links)
        .set({ clicks: sql`${links.clicks} + ${batch.clicks}` })
        .where(sql`${links.id} = ${batch.linkId}`),
      ...Object.entries(batch.stats).map(([key, count]) => {
        const [day, dimension, value] = key.split('|') as [string, string, string];
        return db
          .insert(linkClickStats)
          .values({ linkId: batch.linkId, day, dimension, value, count })
          .onConflictDoUpdate({
            target: [linkClickStats.linkId, linkClickStats.day, linkClickStats.dimension, linkClickStats.value],
            set: { count: sql`${linkClickStats.count} + excluded.count` },
          });
      }),
    ];
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      statements.push(db.delete(linkClickFlushes).where(lt(linkClickFlushes.at, new Date(now - KEEP_FLUSH_IDS_MS))));
      this.lastPrune = now;
    }
    try {
      await runBatch(db, statements);
      return true;
    } catch (err) {
      // D1 refused the batch on the flush id: this flush was already applied
      if (isUniqueViolation(err, 'link_click_flushes.id')) return false;
      throw err;
    }
  }
}
