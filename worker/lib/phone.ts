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

/** Only possible, not assigned: boards show 555 numbers. No country code means North American. */
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
