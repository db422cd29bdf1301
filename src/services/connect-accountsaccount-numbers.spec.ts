import { isValidIban, passesLuhn } from './account-numbers';

describe('account numbers', () => {
  it('should accept valid IBANs and refuse a wrong check digit', () => {
    expect(isValidIban('NL91 ABNA 0417 1643 00')).toBe(true);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('not an iban')).toBe(false);
  });

  it('should apply the Luhn rule', () => {
    expect(passesLuhn('4000056655665556')).toBe(true);
    expect(passesLuhn('4000056655665557')).toBe(false);
    expect(passesLuhn('12ab')).toBe(false);
  });
});
