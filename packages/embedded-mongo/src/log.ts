/**
 * The server's operator log: what went wrong where no client is told (a connection closed for garbage,
 * a failed background write). Lines name their source: a client connection (`conn<id>`) or the TTL monitor.
 */
export interface LogEntry {
  level: 'warn' | 'error';
  /** `conn<id>` for a client connection, `ttl` for the TTL monitor. */
  source: string;
  message: string;
}

export function formatLogEntry(entry: LogEntry): string {
  return `[embedded-mongo] ${entry.level} ${entry.source}: ${entry.message}`;
}

let sink: (entry: LogEntry) => void = (entry) => console.error(formatLogEntry(entry));

/** Where log entries go; the worker thread sends them to the calling thread's `EmbeddedMongoServer`. */
export function setLogSink(next: (entry: LogEntry) => void): void {
  sink = next;
}

export function log(entry: LogEntry): void {
  sink(entry);
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
