/** STOMP protocol versions this server speaks, newest first. */
export const STOMP_VERSIONS = ['1.2', '1.1', '1.0'] as const;
export type StompVersion = (typeof STOMP_VERSIONS)[number];

/** Header names and values, decoded. Null prototype: names come from the network. */
export type StompHeaders = Record<string, string>;

export interface StompFrame {
  command: string;
  headers: StompHeaders;
  body: Buffer;
}

export function createHeaders(): StompHeaders {
  return Object.create(null) as StompHeaders;
}

/** CONNECT, STOMP and CONNECTED frames never escape their headers (STOMP 1.2 "Value Encoding"). */
export function escapesHeaders(command: string, version: StompVersion): boolean {
  return version !== '1.0' && command !== 'CONNECT' && command !== 'STOMP' && command !== 'CONNECTED';
}
