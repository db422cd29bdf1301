export type ReportCell = string | number | boolean | Date | null;

/** A column's value as a plain cell value (ids as hex strings, anything else structured as JSON). */
export function cellValue(value: unknown): ReportCell {
  if (value === undefined || value === null) return null;
  if (value instanceof Date || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    return value;
  }
  if (typeof (value as { toHexString?: unknown }).toHexString === 'function') {
    return (value as { toHexString(): string }).toHexString();
  }
  return JSON.stringify(value);
}
