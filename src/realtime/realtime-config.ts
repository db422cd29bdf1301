/** STOMP settings, from the environment (listed in `.env.example`). */
export interface RealtimeConfig {
  /** Largest frame, headers and body together; larger → ERROR and close. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** What the server offers in CONNECTED `heart-beat`: [can send every, wants to receive every] ms. */
  heartbeat: readonly [number, number];
  /** Undelivered bytes a WebSocket may queue before the session is closed as a slow consumer. */
  maxBufferedBytes: number;
  maxSubscriptionsPerSession: number;
  /** How often an authenticated session's token is verified again (revocation). */
  reverifyEveryMs: number;
  /** Broker destination prefixes clients may SEND to directly (benchmarks); empty = none. */
  clientSendPrefixes: readonly string[];
  /** External STOMP broker (WebSocket URL) that broker destinations are relayed through; unset = in-process. */
  relayUrl?: URL;
}

export const REALTIME_CONFIG = Symbol('REALTIME_CONFIG');

/** DESIGN §9: at least 1 s between heart-beats. */
export const MIN_HEARTBEAT_MS = 1000;

/** @throws Error naming the first bad variable */
export function loadRealtimeConfig(env: NodeJS.ProcessEnv = process.env): RealtimeConfig {
  return {
    maxFrameBytes: integer(env, 'STOMP_MAX_FRAME_BYTES', 64 * 1024, 1024),
    maxHeaders: 64,
    heartbeat: heartbeat(env.STOMP_HEARTBEAT ?? '10000,10000'),
    maxBufferedBytes: integer(env, 'STOMP_MAX_BUFFERED_BYTES', 8 * 1024 * 1024, 64 * 1024),
    maxSubscriptionsPerSession: integer(env, 'STOMP_MAX_SUBSCRIPTIONS', 1000, 1),
    reverifyEveryMs: integer(env, 'STOMP_REVERIFY_MS', 60_000, MIN_HEARTBEAT_MS),
    clientSendPrefixes: (env.STOMP_CLIENT_SEND_PREFIXES ?? '').split(',').filter((p) => p !== ''),
    relayUrl: relayUrl(env.STOMP_RELAY_URL),
  };
}

function relayUrl(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw === '') return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !/^wss?:$/.test(url.protocol)) throw new Error('STOMP_RELAY_URL must be a ws:// or wss:// URL, e.g. ws://user:pass@127.0.0.1:15674/ws');
  return url;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}`);
  return value;
}

function heartbeat(raw: string): [number, number] {
  const match = /^(\d+),(\d+)$/.exec(raw);
  if (!match) throw new Error('STOMP_HEARTBEAT must be "<send ms>,<receive ms>", e.g. 10000,10000');
  const atLeastMin = (ms: number) => (ms === 0 ? 0 : Math.max(ms, MIN_HEARTBEAT_MS));
  return [atLeastMin(Number(match[1])), atLeastMin(Number(match[2]))];
}
