import { STOMP_VERSIONS, StompHeaders, StompVersion } from '../stomp/frame';

/** Highest version both sides speak; no `accept-version` means 1.0. */
export function negotiateVersion(acceptVersion: string | undefined): StompVersion | null {
  if (acceptVersion === undefined) return '1.0';
  const offered = acceptVersion.split(',').map((v) => v.trim());
  return STOMP_VERSIONS.find((v) => offered.includes(v)) ?? null;
}

export interface Heartbeats {
  /** The server sends a heart-beat after this many ms without other output (0 = never). */
  sendEvery: number;
  /** The server expects something from the client this often (0 = never). */
  expectEvery: number;
}

/**
 * STOMP 1.1 "Heart-beating": each direction runs at the slower of what one side can do and the other wants,
 * and is off when either side says 0. Returns null for a malformed header.
 */
export function negotiateHeartbeats(
  header: string | undefined,
  server: readonly [number, number],
  version: StompVersion,
): Heartbeats | null {
  if (version === '1.0' || header === undefined) return { sendEvery: 0, expectEvery: 0 };
  const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(header);
  if (!match) return null;
  const [clientSends, clientWants] = [Number(match[1]), Number(match[2])];
  const [serverSends, serverWants] = server;
  return {
    sendEvery: serverSends && clientWants ? Math.max(serverSends, clientWants) : 0,
    expectEvery: serverWants && clientSends ? Math.max(serverWants, clientSends) : 0,
  };
}

/** A request header by its canonical name or in lower case (some clients lower-case every name). */
export function header(headers: StompHeaders, name: string): string | undefined {
  return headers[name] ?? headers[name.toLowerCase()];
}

/**
 * The token of an `Authorization: Bearer <token>` header: undefined when there is none, null when the header
 * is present but not a bearer credential.
 */
export function bearerToken(headers: StompHeaders): string | null | undefined {
  const value = header(headers, 'Authorization');
  if (value === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1] : null;
}
