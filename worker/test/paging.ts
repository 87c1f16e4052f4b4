import { expect } from 'vitest';
import { call } from './helpers';

/**
 * Every page of a paged view (docs/decisions/0187-paged-fan-out.md), following `next`: each page
 * 200 and at most `limit` long. GET with the query, or POST with `body` plus the cursor.
 */
export async function allPages<T = any>(token: string, path: string, limit: number, body?: Record<string, unknown>) {
  const items: T[] = [];
  const pages: any[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 200; n++) {
    const res: { status: number; body: any; text: string } = body
      ? await call('POST', path, { token, body: { ...body, limit, ...(cursor ? { cursor } : {}) } })
      : await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    pages.push(res.body);
    cursor = res.body.next;
    if (!cursor) return { items, pages };
  }
  throw new Error('more than 200 pages');
}
