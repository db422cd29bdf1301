/**
 * What a module contributes to the reports: the module that owns the data defines its report, typed from its own
 * schema (usually a `ModelReport`), and registers it with the `ReportRegistry` (`GET /api/v1/reports/{name}`).
 */
export interface ReportSource<T> {
  /** The report's name in the URL. */
  readonly name: string;
  /** Listed explicitly, so that secrets such as password hashes can never appear. */
  readonly columns: readonly ReportColumn<T>[];
  /** The rows created in `[from, to)` (unbounded where absent), in creation order. */
  rows(created: CreatedBetween): ReportRows<T>;
}

export interface ReportColumn<T> {
  header: string;
  value: (row: T) => unknown;
}

export interface CreatedBetween {
  from?: Date;
  to?: Date;
}

/** Rows as they are read; closed when the download ends, also early. */
export interface ReportRows<T> extends AsyncIterable<T> {
  close(): Promise<void>;
}

export function column<T>(header: string, value: (row: T) => unknown): ReportColumn<T> {
  return { header, value };
}
