import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

const regionNames = typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
let options: { code: string; name: string }[] | null = null;

/** Every country libphonenumber-js knows, by English name. */
export function countryOptions() {
  options ??= getCountries()
    .map((code) => ({ code, name: regionNames?.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return options;
}

/** What the phone input starts with once a country is chosen: its calling code. */
export const callingCodePrefix = (country: string) => (country ? `+${getCountryCallingCode(country as CountryCode)}` : '');

/** The country select of the registration and create-user forms. */
export function CountrySelect(props: { id: string; name?: string; value: string; placeholder: string; onChange: (country: string) => void }) {
  return (
    <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      <option value="">{props.placeholder}</option>
      {countryOptions().map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </select>
  );
}
