/**
 * Deep links through login (rule 0132): a logged-out visit to an in-app link goes to
 * `/?next=<the link>`, and after login the app opens it. The link lives in the URL, not in
 * storage, so it is this tab's alone and a reload keeps it.
 */

/** The `next` value for a location, or null for "/" itself. */
export function nextParam(location: { pathname: string; search: string; hash: string }): string | null {
  const target = `${location.pathname}${location.search}${location.hash}`;
  return target === '/' ? null : target;
}

/**
 * `next` if it is a path of this app, otherwise null. Checked twice: the raw text (one leading
 * slash, no backslash, no control characters), and again after the URL parser has resolved dot
 * segments and percent-encoded dots, on the very path it returns: "/.//evil.example" and
 * "/%2e//evil.example" parse to "//evil.example", which a router reads as another host
 * (rule 0154). The returned path never starts with "//" and holds no backslash.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(next)) return null;
  try {
    const base = 'http://app.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (!url.pathname.startsWith('/') || url.pathname.startsWith('//') || /\\|%5c/i.test(url.pathname)) return null;
    return path;
  } catch {
    return null;
  }
}
