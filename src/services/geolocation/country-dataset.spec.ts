import { buildCountryRecords, countryLanguage, resolveCountryCode } from './country-dataset';

describe('country dataset', () => {
  it('should name every country in every shipped language', () => {
    const records = buildCountryRecords();
    expect(records.length).toBeGreaterThanOrEqual(249);
    for (const record of records) {
      expect(Object.values(record.names).every((name) => name.length > 0)).toBe(true);
    }
    expect(records.find((record) => record.code === 'DE')!.names).toMatchObject({
      en: 'Germany',
      de: 'Deutschland',
      fr: 'Allemagne',
      es: 'Alemania',
    });
  });

  it('should reduce Lang-Context to a shipped language, else English', () => {
    expect(countryLanguage('de-AT')).toBe('de');
    expect(countryLanguage('FR')).toBe('fr');
    expect(countryLanguage('xx')).toBe('en');
    expect(countryLanguage(undefined)).toBe('en');
  });

  it('should resolve codes in any ISO form and localized names', () => {
    expect(resolveCountryCode('de', 'en')).toBe('DE');
    expect(resolveCountryCode('DEU', 'en')).toBe('DE');
    expect(resolveCountryCode('36', 'en')).toBe('AU');
    expect(resolveCountryCode('Japon', 'fr')).toBe('JP');
    expect(resolveCountryCode('  ', 'en')).toBeUndefined();
    expect(resolveCountryCode('Atlantis', 'en')).toBeUndefined();
  });
});
