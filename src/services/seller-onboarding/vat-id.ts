/**
 * VAT identification numbers by the formats the European Commission publishes for VIES (the prefix, then the
 * national number). Only the format is checked: check digits differ per country and are the tax offices' to
 * confirm (VIES), so a well-formed number may still not exist. Greece's prefix is `EL`, not its ISO code `GR`.
 * Every pattern is a fixed sequence of character classes with bounded repetition: no backtracking blow-up (ReDoS).
 */
const EU_VAT_FORMATS: Readonly<Record<string, { prefix: string; national: RegExp; example: string }>> = {
  AT: { prefix: 'AT', national: /^U\d{8}$/, example: 'ATU12345678' },
  BE: { prefix: 'BE', national: /^[01]\d{9}$/, example: 'BE0123456789' },
  BG: { prefix: 'BG', national: /^\d{9,10}$/, example: 'BG123456789' },
  CY: { prefix: 'CY', national: /^\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { prefix: 'CZ', national: /^\d{8,10}$/, example: 'CZ12345678' },
  DE: { prefix: 'DE', national: /^\d{9}$/, example: 'DE123456789' },
  DK: { prefix: 'DK', national: /^\d{8}$/, example: 'DK12345678' },
  EE: { prefix: 'EE', national: /^\d{9}$/, example: 'EE123456789' },
  ES: { prefix: 'ES', national: /^[A-Z0-9]\d{7}[A-Z0-9]$/, example: 'ESX1234567X' },
  FI: { prefix: 'FI', national: /^\d{8}$/, example: 'FI12345678' },
  FR: { prefix: 'FR', national: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, example: 'FR12345678901' },
  GR: { prefix: 'EL', national: /^\d{9}$/, example: 'EL123456789' },
  HR: { prefix: 'HR', national: /^\d{11}$/, example: 'HR12345678901' },
  HU: { prefix: 'HU', national: /^\d{8}$/, example: 'HU12345678' },
  IE: { prefix: 'IE', national: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, example: 'IE1234567WA' },
  IT: { prefix: 'IT', national: /^\d{11}$/, example: 'IT12345678901' },
  LT: { prefix: 'LT', national: /^(?:\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { prefix: 'LU', national: /^\d{8}$/, example: 'LU12345678' },
  LV: { prefix: 'LV', national: /^\d{11}$/, example: 'LV12345678901' },
  MT: { prefix: 'MT', national: /^\d{8}$/, example: 'MT12345678' },
  NL: { prefix: 'NL', national: /^\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { prefix: 'PL', national: /^\d{10}$/, example: 'PL1234567890' },
  PT: { prefix: 'PT', national: /^\d{9}$/, example: 'PT123456789' },
  RO: { prefix: 'RO', national: /^[1-9]\d{1,9}$/, example: 'RO1234567890' },
  SE: { prefix: 'SE', national: /^\d{10}01$/, example: 'SE123456789001' },
  SI: { prefix: 'SI', national: /^\d{8}$/, example: 'SI12345678' },
  SK: { prefix: 'SK', national: /^\d{10}$/, example: 'SK1234567890' },
};

/** Outside the EU: a tax number of 4 to 20 capitals and digits (formats vary too much to check more). */
const OTHER_TAX_ID = /^[A-Z0-9]{4,20}$/;

/** Longest accepted input before normalization: bounds the work done on it. */
export const MAX_VAT_ID_INPUT = 40;

export type VatIdCheck = { valid: true; vatId: string } | { valid: false; problem: string };

/** Whether `country` (ISO 3166-1 alpha-2, capitals) is an EU member state, whose VAT ids have a known format. */
export function isEuCountry(country: string): boolean {
  return Object.hasOwn(EU_VAT_FORMATS, country);
}

/**
 * Checks a VAT id against the format of `country`, after removing spaces, dots and dashes and upper-casing.
 * In the EU the prefix may be left out (`123456789` in DE is `DE123456789`); the stored form always carries it.
 */
export function checkVatId(input: string, country: string): VatIdCheck {
  if (input.length > MAX_VAT_ID_INPUT)
    return { valid: false, problem: `vatId must be at most ${MAX_VAT_ID_INPUT} characters` };
  const compact = input.replace(/[\s.-]/g, '').toUpperCase();
  if (!isEuCountry(country)) {
    return OTHER_TAX_ID.test(compact)
      ? { valid: true, vatId: compact }
      : { valid: false, problem: 'vatId must be 4-20 letters and digits' };
  }
  const { prefix, national, example } = EU_VAT_FORMATS[country];
  const number = compact.startsWith(prefix) ? compact.slice(prefix.length) : compact;
  return national.test(number)
    ? { valid: true, vatId: prefix + number }
    : { valid: false, problem: `vatId must be a VAT number of ${country}, e.g. ${example}` };
}
