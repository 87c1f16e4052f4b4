import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LOCALES } from '../../../worker/lib/languages';
import { useRegionNames } from '../../lib/region-names';

/** What the phone input starts with once a country is chosen: its calling code. */
export const callingCodePrefix = (country: string) => (country ? `+${getCountryCallingCode(country as CountryCode)}` : '');

/**
 * The country select of the registration and create-user forms: every country libphonenumber-js
 * knows, named and sorted in the screen's language (web/lib/region-names.ts).
 */
export function CountrySelect(props: { id: string; name?: string; value: string; placeholder: string; onChange: (country: string) => void }) {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const names = useRegionNames(language);
  const options = useMemo(() => {
    if (!names) return [];
    const collator = new Intl.Collator(LOCALES[language]);
    return getCountries()
      .map((code) => ({ code, name: names(code) }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [names, language]);
  return (
    <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)} aria-busy={names ? undefined : true}>
      <option value="">{props.placeholder}</option>
      {options.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </select>
  );
}
