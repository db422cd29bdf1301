import { checkVatId } from './vat-id';

describe('checkVatId', () => {
  it.each([
    ['DE123456789', 'DE', 'DE123456789'],
    ['de 123.456.789', 'DE', 'DE123456789'],
    ['123456789', 'DE', 'DE123456789'],
    ['NL123456789B01', 'NL', 'NL123456789B01'],
    ['ATU12345678', 'AT', 'ATU12345678'],
    ['EL123456789', 'GR', 'EL123456789'],
    ['FRXY123456789', 'FR', 'FRXY123456789'],
    ['IE1234567WA', 'IE', 'IE1234567WA'],
    ['SE123456789001', 'SE', 'SE123456789001'],
    ['CHE-123.456.789', 'CH', 'CHE123456789'],
  ])('should accept %s in %s as %s', (input, country, stored) => {
    expect(checkVatId(input, country)).toEqual({ valid: true, vatId: stored });
  });

  it.each([
    ['DE12345678', 'DE'],
    ['NL123456789', 'NL'],
    ['GR123456789', 'GR'],
    ['FRIO123456789', 'FR'],
    ['SE123456789000', 'SE'],
    ['DE123456789', 'NL'],
    ['AB', 'CH'],
    ['X'.repeat(41), 'DE'],
  ])('should refuse %s in %s', (input, country) => {
    expect(checkVatId(input, country)).toMatchObject({ valid: false });
  });
});
