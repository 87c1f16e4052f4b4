/** Deep links through login (rule 0132): in the URL, not storage, so the link is this tab's alone and a reload keeps it. */

export function nextParam(location: { pathname: string; search: string; hash: string }): string | null {
  const target = `${location.pathname}${location.search}${location.hash}`;
  return target === '/' ? null : target;
}

/**
 * Checked on the raw text and again on the parsed path: "/.//evil.example" and "/%2e//evil.example"
 * parse to "//evil.example", which a router reads as another host (rule 0154).
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
