/**
 * Payouts go to debit cards only. The sandbox knows these test numbers (the README lists them): a debit card is
 * accepted, a credit card that passes the Luhn check is refused (`false`), as a provider's test mode answers.
 */
export const DEBIT_TEST_CARDS: ReadonlyMap<string, string> = new Map([
  ['4000056655665556', 'visa'],
  ['5200828282828210', 'mastercard'],
]);
