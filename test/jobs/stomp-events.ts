import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';

export interface LiveEvent<T = any> {
  event: string;
  id: string;
  data: T;
  timestamp: string;
}

/** Live events received on one destination, in arrival order. */
export interface EventLog<T = any> {
  events: LiveEvent<T>[];
  /** Resolves once `count` events have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<LiveEvent<T>[]>;
}

/** A STOMP client over native WebSocket at `/ws`, connected with the bearer token. */
export async function connectStomp(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.message ?? 'STOMP error'));
    client.onWebSocketError = () => reject(new Error('WebSocket error'));
    client.activate();
  });
  return client;
}

/** Subscribes and returns once the server has confirmed the subscription with a receipt. */
export async function subscribe<T = any>(client: Client, destination: string): Promise<EventLog<T>> {
  const events: LiveEvent<T>[] = [];
  const receipt = `sub-${destination}-${Math.random()}`;
  const confirmed = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
  client.subscribe(destination, (message) => events.push(JSON.parse(message.body)), { receipt });
  await confirmed;
  return { events, waitFor: (count, timeoutMs = 5000) => waitUntil(() => events.length >= count, timeoutMs, events) };
}

async function waitUntil<T>(done: () => boolean, timeoutMs: number, value: T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out; got ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return value;
}
