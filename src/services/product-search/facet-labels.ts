import { Facet, FacetCount } from './facet-pipelines';

/** `localeCompare`'s order with one collator made once (`localeCompare` sets one up on every call). */
const byText = new Intl.Collator().compare;

/**
 * Attaches labels (from `label`, else the row's own, else the humanized value) and orders facets by label,
 * numerically when every value is a number.
 */
export function toFacets(counts: FacetCount[], label?: (value: string) => string): Facet[] {
  const facets = counts.map((row) => {
    const value = String(row._id);
    return { value, label: label ? label(value) : (row.label ?? humanize(value)), count: row.count };
  });
  const numeric = facets.every((facet) => facet.value.trim() !== '' && Number.isFinite(Number(facet.value)));
  return facets.sort((a, b) =>
    numeric ? Number(a.value) - Number(b.value) : byText(a.label, b.label) || byText(a.value, b.value),
  );
}

/** `HEIRLOOM_CULTIVAR` → `Heirloom cultivar`; other values are shown as they are. */
export function humanize(value: string): string {
  if (!/^[A-Z0-9_]+$/.test(value)) return value;
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
