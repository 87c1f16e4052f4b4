/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiCall, loginFromBrowser, shot } from './helpers';
import { everyScreen, type Role, seedTeam, type Team } from './team-seed';

/**
 * Every screen of every role, and the public pages, in Russian and in Armenian at 390 and 1366 px
 * (docs/decisions/0023-languages.md): the page says its language, nothing is wider than the
 * screen, no English sentence of the catalogue is left, and no English word at all is shown or
 * announced outside the users' data and brand names. "Shown or announced" is the page's text, the
 * attributes people read (aria-label, title, placeholder…) and Chromium's accessibility tree, so
 * third-party components' default labels ("Notifications (F8)", "… legend icon") and the browser's
 * own date fields ("Month", "mm/dd/yyyy") count too.
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

const LATIN_WORD = /\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*/gu;

/**
 * The Latin-script words a translated screen may show: those the language's own catalogue keeps
 * (brand and product names such as FreightDesk, Idram, FMCSA, MC, CSV; a CSV file's column names;
 * URL schemes), read from its texts without their placeholders and tags.
 */
function keptWords(language: string) {
  const words = new Set<string>();
  for (const text of catalogue(language).values()) for (const word of text.replace(/\{\{[^}]*\}\}|<[^>]*>/g, ' ').match(LATIN_WORD) ?? []) words.add(word);
  return words;
}

/**
 * The API answers' fields that hold people's data, shown as they were typed: names, e-mails,
 * brokers, lanes, comments, codes, links. Anything else an answer carries in English (a session's
 * client, a status label) is the product's own text and must be translated on screen. The browser
 * and system of a session are their makers' names.
 */
const DATA_FIELDS = new Set([
  'name',
  'email',
  'userName',
  'userEmail',
  'payerName',
  'payerEmail',
  'parentName',
  'managerName',
  'brokerName',
  'company',
  'comment',
  'contact',
  'contacts',
  'address',
  'origin',
  'dest',
  'destination',
  'mcName',
  'mcNumber',
  'dotNumber',
  'from',
  'to',
  'url',
  'alias',
  'code',
  'subject',
  'browser',
  'os',
]);

/** Every string the page's API answers hold under a data field. */
function collectData(value: unknown, into: Set<string>, field = '') {
  if (typeof value === 'string') {
    if (DATA_FIELDS.has(field) && value.trim()) into.add(value.trim());
  } else if (Array.isArray(value)) for (const item of value) collectData(item, into, field);
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) collectData(item, into, key);
}

/** Follows the page's API answers, so the users' data on screen is known. */
function watchData(context: BrowserContext, data: Set<string>) {
  context.on('response', async (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/') || !(response.headers()['content-type'] ?? '').includes('json')) return;
    try {
      collectData(await response.json(), data);
    } catch {
      // an answer the page left unread (a navigation away) has no body to read
    }
  });
}

/**
 * Everything the page shows or announces: its text (hidden parts too: sr-only captions, closed
 * menus, options), the attributes people read, and the accessible names, descriptions and values of
 * Chromium's accessibility tree (where the browser's own controls and ARIA defaults show up).
 * Text marked as another language (`lang="en"`: "English" in the language picker) is left out.
 */
async function shownAndAnnounced(page: Page): Promise<string[]> {
  const { texts, foreign } = await page.evaluate(() => {
    const texts: string[] = [document.title];
    const foreign: string[] = [];
    const isForeign = (el: Element) => {
      const lang = el.closest('[lang]')?.getAttribute('lang');
      return !!lang && lang !== document.documentElement.lang;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.nodeValue?.trim();
      if (!parent || !text || parent.closest('script, style, noscript')) continue;
      (isForeign(parent) ? foreign : texts).push(text);
    }
    const read = ['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'aria-roledescription', 'aria-valuetext'];
    for (const el of document.querySelectorAll(read.map((a) => `[${a}]`).join(','))) {
      for (const attribute of read) {
        const value = el.getAttribute(attribute)?.trim();
        if (value) (isForeign(el) ? foreign : texts).push(value);
      }
    }
    return { texts, foreign };
  });
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { ignored: boolean; role?: { value?: unknown }; name?: { value?: unknown }; description?: { value?: unknown }; value?: { value?: unknown } }[];
  };
  await cdp.detach();
  const skip = new Set(foreign);
  for (const node of nodes) {
    // an inline text box is a line of a text already read whole
    if (node.ignored || node.role?.value === 'InlineTextBox') continue;
    for (const v of [node.name?.value, node.description?.value, node.value?.value])
      if (typeof v === 'string' && v.trim() && !skip.has(v.trim())) texts.push(v.trim());
  }
  return texts;
}

/**
 * The English words in `texts`: Latin-script words that are neither the users' data (any word of
 * a value the API answered in a data field) nor kept by the language's catalogue. E-mails, web
 * addresses and tokens with digits (codes, ids, colours, "F8") are left out.
 */
function englishWords(texts: string[], data: Set<string>, kept: Set<string>) {
  const dataWords = new Set([...data].flatMap((value) => value.match(LATIN_WORD) ?? []));
  const found = new Map<string, string>();
  for (const text of new Set(texts)) {
    const rest = text.replace(/\S+@\S+/g, ' ').replace(/\b(?:https?:\/\/|www\.)\S+/g, ' ');
    for (const token of rest.split(/[^\p{L}\p{N}'’-]+/u)) {
      if (/\p{N}/u.test(token)) continue;
      for (const word of token.match(LATIN_WORD) ?? []) if (!kept.has(word) && !dataWords.has(word) && !found.has(word)) found.set(word, text.slice(0, 80));
    }
  }
  return [...found].map(([word, context]) => `${word} (in "${context}")`);
}

let team: Team;
test.beforeAll(async () => {
  team = await seedTeam();
});

const WIDTHS = [390, 1366] as const;

for (const language of ['ru', 'hy'] as const) {
  for (const width of WIDTHS) {
    test(`every screen of every role in ${language} at ${width} px: translated, nothing English shown or announced, nothing wider than the screen`, async ({
      browser,
    }) => {
      test.setTimeout(420_000);
      const pieces = englishPieces(language);
      expect(pieces.length).toBeGreaterThan(100);
      const kept = keptWords(language);
      const problems: string[] = [];
      const check = async (page: Page, name: string, data: Set<string>) => {
        const lang = await expect(page.locator('html'))
          .toHaveAttribute('lang', language)
          .then(
            () => language,
            () => page.evaluate(() => document.documentElement.lang),
          );
        if (lang !== language) problems.push(`${name}: <html lang="${lang}">`);
        const texts = await shownAndAnnounced(page);
        const all = texts.join('\n');
        const left = pieces.filter((piece) => all.includes(piece));
        if (left.length) problems.push(`${name}: English of the catalogue left: ${left.join(' | ')}`);
        const words = englishWords(texts, data, kept);
        if (words.length) problems.push(`${name}: English words: ${words.join(', ')}`);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) problems.push(`${name}: ${scrollWidth}px wide at ${width}px`);
        await shot(page, `languages-${language}-${width}-${name.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}`);
      };

      // the public pages, in a browser that kept the language
      {
        const context = await browser.newContext({ viewport: { width, height: 844 } });
        const data = new Set<string>();
        watchData(context, data);
        const page = await context.newPage();
        await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
        await page.goto('/');
        await expect(page.locator('h1').first()).toBeVisible();
        await check(page, 'public login', data);
        await page.locator('.form-links button').first().click();
        await expect(page.locator('input[type=email]')).toBeVisible();
        await check(page, 'public forgot password', data);
        await page.goto('/');
        await page.locator('.form-links button').last().click();
        await expect(page.locator('select#reg-country')).toBeVisible();
        await check(page, 'public register', data);
        for (const screen of ['/paymentResult/confirmed', '/paymentResult/failed', '/help']) {
          await page.goto(screen);
          await expect(page.locator('h1').first()).toBeVisible();
          await expect(page.locator('.spinner')).toHaveCount(0);
          await check(page, `public ${screen}`, data);
        }
        await context.close();
      }

      const screens = everyScreen(team);
      for (const role of Object.keys(screens) as Role[]) {
        const { user, paths } = screens[role];
        expect((await apiCall('PUT', `/api/user/update/language/${user().id}`, { language }, user().token)).status).toBe(200);
        const context = await browser.newContext({ viewport: { width, height: 844 } });
        const data = new Set<string>(Object.values(team).flatMap((u) => (typeof u === 'object' ? [u.name, u.email] : [])));
        watchData(context, data);
        const page = await context.newPage();
        await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
        await loginFromBrowser(page, user(), paths[0]!);
        for (const screen of paths) {
          await page.goto(screen);
          await expect(page.locator('h1').first()).toBeVisible();
          await expect(page.locator('.spinner')).toHaveCount(0);
          await check(page, `${role} ${screen}`, data);
        }
        await context.close();
      }

      // the page that forwards a payer to Idram, in the payer's language (its script posts at once: read it without)
      {
        const order = await apiCall('POST', '/api/payment/generateLink', { amount: 2, paymentType: 'idram' }, team.manager.token);
        expect(order.status).toBe(200);
        const history = (await apiCall('GET', '/api/payment/paymentHistory', undefined, team.manager.token)).body as { _id: string }[];
        const context = await browser.newContext({ viewport: { width, height: 844 }, javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(`/api/payment/idram/pay/${history[0]!._id}`);
        await check(page, 'payer Idram forwarding page', new Set());
        await context.close();
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
}
