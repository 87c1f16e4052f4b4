import { DurableObject } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { linkClickStats, links } from '../db/schema';
import type { Bindings } from '../env';
import { createDb } from '../lib/db';

/** One flush of clicks for one link: the total and the per-day, per-dimension counts. */
export interface ClickBatch {
  linkId: string;
  clicks: number;
  // `${day}|${dimension}|${value}` -> count
  stats: Record<string, number>;
}

/**
 * Exact click counting, one object per link: Durable Object calls to one object run one at a
 * time, so concurrent flushes never interleave, and each flush lands in D1 as one batch (the
 * link's total and its stats rows together). Clicks arrive already coalesced per isolate.
 */
export class ClickCounter extends DurableObject<Bindings> {
  async add(batch: ClickBatch): Promise<void> {
    const db = createDb(this.env.DB);
    const statements = [
      db.update(links).set({ clicks: sql`${links.clicks} + ${batch.clicks}` }).where(sql`${links.id} = ${batch.linkId}`),
      ...Object.entries(batch.stats).map(([key, count]) => {
        const [day, dimension, value] = key.split('|') as [string, string, string];
        return db
          .insert(linkClickStats)
          .values({ linkId: batch.linkId, day, dimension, value, count })
          .onConflictDoUpdate({
            target: [linkClickStats.linkId, linkClickStats.day, linkClickStats.dimension, linkClickStats.value],
            set: { count: sql`${linkClickStats.count} + ${count}` },
          });
      }),
    ];
    await db.batch(statements as [ (typeof statements)[0], ...(typeof statements)[number][] ]);
  }
}
