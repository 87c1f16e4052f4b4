/** No imports, so the login page can take them. */

/**
 * Characters a person cannot see: inserted into an e-mail or a name they make a look-alike of an
 * existing account, so every path that takes one refuses them (docs/rules/auth.md#0035-look-alike-text).
 */
const INVISIBLE_CHARS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
export const hasInvisibleChars = (value: string) => INVISIBLE_CHARS.test(value);

/** NFKC, trimmed and lower-cased, so look-alike spellings of one address meet the unique index. */
export const normalizeEmail = (email: string) => email.normalize('NFKC').trim().toLowerCase();
