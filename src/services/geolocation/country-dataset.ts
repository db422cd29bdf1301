import countries from 'i18n-iso-countries';
import { createHash } from 'node:crypto';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import it from 'i18n-iso-countries/langs/it.json';
import nl from 'i18n-iso-countries/langs/nl.json';
import pl from 'i18n-iso-countries/langs/pl.json';
import pt from 'i18n-iso-countries/langs/pt.json';

const LOCALES = [en, de, fr, es, it, nl, pl, pt];
for (const locale of LOCALES) countries.registerLocale(locale);

/** Languages country names are shipped in; any other `Lang-Context` falls back to English. */
export const COUNTRY_LANGUAGES: readonly string[] = LOCALES.map((locale) => locale.locale);
export const FALLBACK_LANGUAGE = 'en';

/** One country as stored: ISO 3166-1 codes and its name in every shipped language. */
export interface CountryRecord {
  _id: string;
  code: string;
  alpha3: string;
  numeric: string;
  names: Record<string, string>;
}

/** A fingerprint of the records, stored with them so a changed dataset is rewritten. */
export function datasetVersion(records: CountryRecord[]): string {
  return createHash('sha1').update(JSON.stringify(records)).digest('hex');
}

/** `de-AT` → `de`; unknown languages → English. */
export function countryLanguage(lang: string | undefined): string {
  const base = (lang ?? '').toLowerCase().split(/[-_]/)[0];
  return COUNTRY_LANGUAGES.includes(base) ? base : FALLBACK_LANGUAGE;
}

export function buildCountryRecords(): CountryRecord[] {
  return Object.entries(countries.getAlpha2Codes()).map(([code, alpha3]) => ({
    _id: code,
    code,
    alpha3,
    numeric: countries.alpha2ToNumeric(code) ?? '',
    names: localizedNames(code),
  }));
}

function localizedNames(code: string): Record<string, string> {
  const english = countries.getName(code, FALLBACK_LANGUAGE) ?? code;
  return Object.fromEntries(COUNTRY_LANGUAGES.map((lang) => [lang, countries.getName(code, lang) ?? english]));
}

/**
 * The alpha-2 code for a country given as alpha-2, alpha-3 or numeric code, or by its name in `lang`
 * (official or common name, case-insensitive); undefined when nothing matches.
 */
export function resolveCountryCode(input: string, lang: string): string | undefined {
  const text = input.trim();
  if (text === '') return undefined;
  if (/^\d{1,3}$/.test(text)) return countries.numericToAlpha2(text.padStart(3, '0'));
  if (/^[a-z]{2,3}$/i.test(text) && countries.isValid(text.toUpperCase())) {
    return countries.toAlpha2(text.toUpperCase());
  }
  return countries.getAlpha2Code(text, lang) ?? countries.getSimpleAlpha2Code(text, lang);
}
