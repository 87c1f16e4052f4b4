/** Text rules for e-mails and names, shared by the server and the web app (no imports, so the login page can take them). */

/**
 * Characters a person cannot see: controls (Cc), format characters (Cf: U+200B zero width
 * space, U+2060 word joiner, U+00AD soft hyphen, U+FEFF, U+180E, bidi marks…), line and
 * paragraph separators (Zl, Zp), lone surrogates (Cs), Unicode's default-ignorable code points
 * (Hangul fillers, variation selectors, tags) and the blank Braille pattern. Inserted into an
 * e-mail or a name they make a look-alike of an existing account, so every path that takes one
 * refuses them (docs/rules/auth.md#0035-look-alike-text).
 */
const INVISIBLE_CHARS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
export const hasInvisibleChars = (value: string) => INVISIBLE_CHARS.test(value);

/**
 * How an address is stored and looked up: NFKC (full-width `ａ` and `＠` become `a` and `@`, a
 * decomposed `é` the composed one), trimmed and lower-cased, so look-alike spellings of one
 * address meet the unique index instead of making a second account.
 */
export const normalizeEmail = (email: string) => email.normalize('NFKC').trim().toLowerCase();
