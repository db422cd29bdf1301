/** Minor units as text with the currency's own number of decimals (0 for JPY, 2 for EUR, ...), e.g. `€24.20`. */
export function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
