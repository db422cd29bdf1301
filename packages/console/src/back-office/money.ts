/** An amount in integer minor units as the user's language writes it (`12,50 €` in German). */
export function formatMoney(minorUnits: number, currency: string, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(minorUnits / 100);
  } catch {
    return `${(minorUnits / 100).toFixed(2)} ${currency}`;
  }
}

export function formatDate(iso: string | null, lang: string): string {
  return iso ? new Date(iso).toLocaleString(lang) : '–';
}
