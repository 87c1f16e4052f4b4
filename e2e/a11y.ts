/// <reference lib="dom" />
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/** axe-core's browser build, read once; evaluated in the page (DevTools evaluation is not subject to the app's CSP). */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA (rule 0155). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Waits for the screen to settle (no spinner), runs axe-core on the whole page and fails with each violation's rule and elements. */
export async function expectNoA11yViolations(page: Page, label: string) {
  await expect(page.locator('.spinner')).toHaveCount(0);
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as any).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      // WCAG 2.5.3 (label in name): axe marks it experimental and leaves it off unless asked
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return result.violations as Violation[];
  }, WCAG_TAGS);
  const text = violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`,
    )
    .join('\n');
  // soft: one run names every screen's violations, not only the first
  expect.soft(violations.length, `${label}: axe violations\n${text}`).toBe(0);
}

/**
 * Nothing wider than the viewport (rule 0156): the page does not scroll sideways, and no
 * scroll box inside it hides content to the right (a table's columns off screen). Fails naming
 * the widest offenders.
 */
export async function expectNoHorizontalOverflow(page: Page, label: string) {
  await expect(page.locator('.spinner')).toHaveCount(0);
  const problems = await page.evaluate(() => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const out: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
      const wide = Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .slice(-3)
        .map((el) => `${name(el)} (right ${Math.round(el.getBoundingClientRect().right)})`);
      out.push(`page is ${document.documentElement.scrollWidth} px wide: ${wide.join(', ')}`);
    }
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const style = getComputedStyle(el);
      if (!/(auto|scroll)/.test(style.overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
    return out;
  });
  expect.soft(problems, `${label}: wider than the screen`).toEqual([]);
}
