/**
 * D1 bookmarks between the API and its clients (docs/decisions/0015-read-replicas.md). No
 * server imports: the web app and the extension import this file.
 */

/** The request and response header: the client sends the newest bookmark it was given, the API answers its own. */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/**
 * The shape of the bookmarks D1 hands out: hex counters of fixed width, so they sort as strings
 * and the newer of two is the larger. A header of any other shape is ignored, not refused.
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

export const isBookmark = (value: string | null | undefined): value is string => typeof value === 'string' && BOOKMARK.test(value);

/** The newer of two bookmarks (either may be missing); a malformed one never wins. */
export function newerBookmark(a: string | null | undefined, b: string | null | undefined): string | null {
  const left = isBookmark(a) ? a : null;
  const right = isBookmark(b) ? b : null;
  if (!left) return right;
  if (!right) return left;
  // biome-ignore lint/complexity/useMathMinMax: strings, compared as strings (Math.max would make NaN)
  return right > left ? right : left;
}
