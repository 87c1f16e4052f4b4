#!/usr/bin/env node
// Writes web/i18n/countries/countries-<language>.json: every country libphonenumber-js knows, named in
// Russian and in Armenian by CLDR (Node's full ICU). The screens use the browser's own names
// (Intl.DisplayNames) and fetch these only where the browser has none: Chromium's own builds and
// the Workers runtime carry no Armenian (docs/decisions/0178-no-english-left.md).
// Run again after a libphonenumber-js or Node upgrade: `node scripts/region-names.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { getCountries } from 'libphonenumber-js/min';

const LANGUAGES = ['ru', 'hy'];
const folder = path.resolve(import.meta.dirname, '..', 'web', 'i18n', 'countries');
fs.mkdirSync(folder, { recursive: true });
for (const language of LANGUAGES) {
  if (Intl.DisplayNames.supportedLocalesOf(language).length === 0) throw new Error(`this Node has no ${language} data: it needs full ICU`);
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  const table = Object.fromEntries(
    getCountries()
      .sort()
      .map((code) => {
        const name = names.of(code);
        if (!name) throw new Error(`CLDR has no ${language} name for ${code}`);
        return [code, name];
      }),
  );
  // one top-level key: Vite makes each top-level key of a JSON module an export, which nearly doubled the chunk
  fs.writeFileSync(path.join(folder, `countries-${language}.json`), `${JSON.stringify({ cldr: process.versions.cldr, names: table }, null, 2)}\n`);
  console.log(`web/i18n/countries/countries-${language}.json: ${Object.keys(table).length} countries (CLDR ${process.versions.cldr})`);
}
