// Browser-safe: the time zone a phone number's owner most likely lives in (decision record 062).
import { type CountryCode, getCountries, getCountryCallingCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { MOST_POPULOUS_ZONE } from "#app/modules/quiet-hours/most-populous-zone.ts";
import { SINGLE_ZONE_COUNTRIES } from "#app/modules/quiet-hours/single-zone-countries.ts";

// Calling code -> its countries, built on first use; most codes have one country and need no parsing.
let countriesByCode: Map<string, CountryCode[]> | undefined;

function countriesOf(callingCode: string): CountryCode[] | undefined {
  if (!countriesByCode) {
    countriesByCode = new Map();
    for (const country of getCountries()) {
      const code = getCountryCallingCode(country);
      countriesByCode.set(code, [...(countriesByCode.get(code) ?? []), country]);
    }
  }
  return countriesByCode.get(callingCode);
}

/** The ISO country of an E.164 number, or null when the number says nothing certain. */
export function countryOfNumber(e164: string): CountryCode | null {
  // Calling codes are prefix-free: the first of 1 to 3 digits that is one is the one.
  for (let length = 1; length <= 3; length++) {
    const countries = countriesOf(e164.slice(1, 1 + length));
    if (!countries) continue;
    if (countries.length === 1) return countries[0];
    // Shared codes (+1, +7, +44, ...) need the number plan: area codes tell the US from Canada.
    return parsePhoneNumberFromString(e164)?.country ?? null;
  }
  return null;
}

/** The zone for a country: its only zone, else its most populous one; null for none. */
export function zoneOfCountry(country: string): string | null {
  return MOST_POPULOUS_ZONE[country] ?? SINGLE_ZONE_COUNTRIES[country] ?? null;
}

/** The recipient's zone as the number tells it, or null (then the account's zone is used). */
export function zoneOfNumber(e164: string): string | null {
  const country = countryOfNumber(e164);
  return country ? zoneOfCountry(country) : null;
}
