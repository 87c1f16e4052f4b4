// Shared with the web app: no server imports here.
import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/min';

const COUNTRIES = new Set<string>(getCountries());

export const isCountryCode = (code: string): code is CountryCode => COUNTRIES.has(code);

/** A phone is accepted when it is possible and valid for the chosen country; answers E.164. */
export function normalizePhone(phone: string, country: string): string | null {
  if (!isCountryCode(country)) return null;
  const parsed = parsePhoneNumberFromString(phone, country);
  if (!parsed?.isPossible() || !parsed.isValid() || parsed.country !== country) return null;
  return parsed.number;
}

/**
 * A phone number as a load board shows it (`(312) 555-0142`, `312.555.0142 ext 12`,
 * `(555) 555-5555 x123`, `+44 20 7946 0958`) in one stored form: E.164, plus `;ext=N` (RFC 3966)
 * when it has an extension. Numbers without a country code are North American (US). A number
 * only has to be possible (right length for its country), not assigned: boards show 555 numbers.
 * Answers null when it is not a phone number.
 */
export function normalizeBoardPhone(raw: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), 'US');
  if (!parsed?.isPossible()) return null;
  return parsed.ext ? `${parsed.number};ext=${parsed.ext}` : parsed.number;
}

/** A stored board phone for people: `+1 312 555 0142 ext. 12`. */
export function formatBoardPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored);
  return parsed ? parsed.formatInternational() : stored;
}
