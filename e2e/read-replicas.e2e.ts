import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, loginAs, shot } from './helpers';

/**
 * The web client's half of reads off the primary (docs/decisions/0015-read-replicas.md): it keeps
 * the newest `x-d1-bookmark` the API answered and sends it on every later call, so the read after
 * a user's own write starts at that write, in this tab, after a reload and in another tab.
 */
const HEADER = 'x-d1-bookmark';
const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');

test('the web app sends the newest bookmark it was given, after a write, a reload and in a second tab', async ({ page, context }) => {
  const manager = await createUser('manager', { name: 'Bookmark Manager' });
  const sent: { url: string; method: string; bookmark: string | undefined }[] = [];
  const answered: { url: string; method: string; bookmark: string | null; at: number }[] = [];
  const record = (r: Request) => isApi(r.url()) && sent.push({ url: r.url(), method: r.method(), bookmark: r.headers()[HEADER] });
  page.on('request', record);
  page.on('response', (r) => {
    if (isApi(r.url())) answered.push({ url: r.url(), method: r.request().method(), bookmark: r.headers()[HEADER] ?? null, at: answered.length });
  });

  await loginAs(page, manager, '/profile/');
  const details = page.getByTestId('profile-details');
  await expect(details).toContainText('Bookmark Manager');
  // the screen's reads after the first one send the bookmark they were given
  expect(answered.length).toBeGreaterThan(0);
  // a bookmark is named by the shard of the caller's company (docs/decisions/0174-company-shards.md);
  // an answer that read nothing of it (sign-in, subscription status from the token check, the live
  // socket's upgrade) has none to give, and the client keeps its own
  for (const a of answered) if (a.bookmark !== null) expect(a.bookmark, a.url).toMatch(/^(DB|SHARD_\d+)~[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
  expect(answered.filter((a) => a.url.includes('/api/user/') && a.bookmark).length, 'the profile read names its shard').toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Update name' }).click();
  await page.getByLabel('New name').fill('Renamed Through Replica');
  const putDone = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/user/update/name/'));
  await page.getByRole('button', { name: 'Save name' }).click();
  const put = await putDone;
  const written = put.headers()[HEADER]!;
  expect(written).toMatch(/^(DB|SHARD_\d+)~[0-9a-f]{8}-/);
  // the profile reloads after the save: that read carries the write's bookmark (or a newer one)
  await expect(details).toContainText('Renamed Through Replica');
  const putIndex = sent.findIndex((s) => s.method === 'PUT');
  await expect.poll(() => sent.slice(putIndex + 1).length).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
  for (const s of sent.slice(putIndex + 1)) expect(s.bookmark! >= written, s.url).toBe(true);
  // the newest answer's bookmark is kept, whatever order the answers came in (bookmarks sort as strings)
  const newest = answered
    .flatMap((a) => (a.bookmark ? [a.bookmark] : []))
    .sort()
    .at(-1);
  expect(await page.evaluate(() => localStorage.getItem('d1Bookmark'))).toBe(newest);
  await shot(page, 'read-replicas-profile-renamed');

  // a reload starts from the kept bookmark: its very first API call sends it
  const kept = (await page.evaluate(() => localStorage.getItem('d1Bookmark')))!;
  sent.length = 0;
  await page.reload();
  await expect(details).toContainText('Renamed Through Replica');
  expect(sent[0]?.bookmark).toBeDefined();
  expect(sent[0]!.bookmark! >= kept).toBe(true);

  // a second tab of the same browser sends it too
  const second = await context.newPage();
  const secondSent: (string | undefined)[] = [];
  second.on('request', (r) => isApi(r.url()) && secondSent.push(r.headers()[HEADER]));
  await second.goto('/profile/');
  await expect(second.getByTestId('profile-details')).toContainText('Renamed Through Replica');
  expect(secondSent.length).toBeGreaterThan(0);
  expect(secondSent[0]! >= kept).toBe(true);
});
