/** docs/decisions/0015-read-replicas.md. No server imports: the web app and the extension import this file. */

/** The request and response header: the client sends the newest bookmark it was given, the API answers its own. */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** Fixed-width hex counters, so two of one shard sort as strings. Any other shape is ignored, not refused. */
const BOOKMARK = /^(DB|SHARD_[A-Z0-9_]+)~([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;

export const isBookmark = (value: string | null | undefined): value is string => typeof value === 'string' && BOOKMARK.test(value);

export const shardBookmark = (shard: string, bookmark: string) => `${shard}~${bookmark}`;

/** The D1 bookmark a header carries for this shard; undefined for another shard's or a malformed one. */
export function bookmarkFor(shard: string, value: string | null | undefined): string | undefined {
  const match = typeof value === 'string' ? BOOKMARK.exec(value) : null;
  return match && match[1] === shard ? match[2] : undefined;
}

/** A malformed one never wins; of two shards' (the company moved) the one just received wins. */
export function newerBookmark(a: string | null | undefined, b: string | null | undefined): string | null {
  const left = isBookmark(a) ? a : null;
  const right = isBookmark(b) ? b : null;
  if (!left) return right;
  if (!right) return left;
  if (left.slice(0, left.indexOf('~')) !== right.slice(0, right.indexOf('~'))) return right;
  // biome-ignore lint/complexity/useMathMinMax: strings, compared as strings (Math.max would make NaN)
  return right > left ? right : left;
}
