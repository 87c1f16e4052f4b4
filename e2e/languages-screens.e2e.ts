/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { apiCall, loginAs, shot } from './helpers';
import { everyScreen, type Role, seedTeam, type Team } from './team-seed';

/**
 * Every screen of every role in Russian and in Armenian at 390 px (docs/decisions/0023-languages.md):
 * the page says its language, nothing is wider than the phone, and no English sentence of the
 * catalogue is left on screen (a text the screens forgot to translate, or a part that was not loaded).
 */
const I18N = path.resolve(import.meta.dirname, '..', 'web', 'i18n');
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()) {
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(name, value);
    else flatten(value, name, out);
  }
  return out;
}

/** All parts of one language's catalogue, flattened: `menu.profile` → "Profile". */
function catalogue(language: string) {
  const out = new Map<string, string>();
  for (const file of fs.readdirSync(I18N).filter((f) => f === `${language}.json` || (f.startsWith(`${language}-`) && f.endsWith('.json'))))
    flatten(JSON.parse(fs.readFileSync(path.join(I18N, file), 'utf8')) as Tree, '', out);
  return out;
}

/**
 * The English pieces that must not be on a translated screen: each text's words between its
 * placeholders and tags, when the piece has at least two words (a single word such as "Agent" can
 * be a person's name or part of an address) and the other language does not keep it as it is.
 */
function englishPieces(language: string) {
  const english = catalogue('en');
  const other = new Set(catalogue(language).values());
  // words the other language keeps as they are (the default filter types' names, product names)
  const otherText = [...other].join('\n');
  const pieces = new Set<string>();
  for (const [key, text] of english) {
    if (key.startsWith('messages.') || other.has(text)) continue;
    for (const piece of text.split(/\{\{[^}]*\}\}|<\/?\w+>|\n/)) {
      const trimmed = piece.trim().replace(/[:.,…]+$/, '');
      if (trimmed.length >= 8 && /\p{L}+\s+\p{L}+/u.test(trimmed) && !otherText.includes(trimmed)) pieces.add(trimmed);
    }
  }
  return [...pieces];
}

let team: Team;
test.beforeAll(async () => {
  team = await seedTeam();
});

for (const language of ['ru', 'hy'] as const) {
  test(`every screen of every role in ${language} at 390 px: translated, nothing wider than the phone`, async ({ context }) => {
    test.setTimeout(240_000);
    const pieces = englishPieces(language);
    expect(pieces.length).toBeGreaterThan(100);
    const screens = everyScreen(team);
    for (const role of Object.keys(screens) as Role[]) {
      const { user, paths } = screens[role];
      expect((await apiCall('PUT', `/api/user/update/language/${user().id}`, { language }, user().token)).status).toBe(200);
      // a page of its own per role, in the test's context (its cache keeps the SPA's scripts)
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      await loginAs(page, user(), paths[0]);
      for (const screen of paths) {
        await page.goto(screen);
        await expect(page.locator('h1').first()).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.locator('.spinner')).toHaveCount(0);
        const name = `${role} ${screen}`;
        const left = await page.evaluate((list) => {
          // all text, the screen reader's too (sr-only captions and labels)
          const text = document.body.textContent ?? '';
          return list.filter((piece) => text.includes(piece));
        }, pieces);
        expect(left, `${name}: English left on screen`).toEqual([]);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${name}: ${width}px wide at 390px`).toBeLessThanOrEqual(390);
        await shot(page, `languages-${language}-390-${role}-${screen.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}`);
      }
      await page.close();
    }
  });
}
