/** Relative luminance of a #rrggbb colour (WCAG 2.1), or null for anything else. */
function luminance(hex: string): number | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** A team picks its types' colours, so no one text colour fits all; one of the two always reaches 4.58:1 (WCAG AA: 4.5:1). */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  const l = luminance(background);
  if (l === null) return '#000000';
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#000000';
}
