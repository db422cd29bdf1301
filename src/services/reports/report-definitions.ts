/** One column of a report: its heading and the dotted path of the value in the stored document. */
export interface ReportColumn {
  header: string;
  path: string;
}

export interface ReportDefinition {
  collection: string;
  /** Which documents belong in the report (beyond the date range). */
  filter: Record<string, unknown>;
  columns: ReportColumn[];
}

const column = (header: string, path = header): ReportColumn => ({ header, path });

/** The exportable reports. Columns are listed explicitly, so secrets such as password hashes can never appear. */
export const REPORTS: Record<string, ReportDefinition> = {
  orders: {
    collection: 'orders',
    filter: {},
    columns: [
      column('id', '_id'),
      column('status'),
      column('buyerId', 'embeddedBuyer.id'),
      column('buyer', 'embeddedBuyer.username'),
      column('vendorId', 'embeddedVendor.id'),
      column('currencyCode'),
      column('total'),
      column('tax'),
      column('paymentMethodId'),
      column('parcelId'),
      column('createdAt'),
      column('updatedAt'),
    ],
  },
  customers: {
    collection: 'users',
    filter: { role: 'USER' },
    columns: [column('id', '_id'), column('username'), column('email'), column('verified'), column('disabled'), column('createdAt')],
  },
  jobs: {
    collection: 'jobs',
    filter: {},
    columns: [
      column('id', '_id'),
      column('type'),
      column('description'),
      column('status'),
      column('current'),
      column('total'),
      column('progress'),
      column('startedAt'),
      column('finishedAt'),
      column('createdAt'),
    ],
  },
};

/** The value at a dotted path, as a plain cell value (ids as hex strings). */
export function cellValue(document: Record<string, unknown>, path: string): string | number | boolean | Date | null {
  let value: unknown = document;
  for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (value === undefined || value === null) return null;
  if (value instanceof Date || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof (value as { toHexString?: unknown }).toHexString === 'function') return (value as { toHexString(): string }).toHexString();
  return JSON.stringify(value);
}
