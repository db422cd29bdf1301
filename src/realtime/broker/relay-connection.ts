import { Logger } from '@nestjs/common';
import { Client, IMessage, ReconnectionTimeMode, StompHeaders, Versions } from '@stomp/stompjs';
import { WebSocket } from 'ws';

const HEARTBEAT_MS = 10_000;
/** Silence of the broker, in heart-beat intervals, after which the connection is taken for dead. */
const HEARTBEATS_MISSED = 3;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/** A message of one upstream subscription: its body and the headers the broker sent with it. */
export type RelayMessageHandler = (body: Buffer, headers: StompHeaders) => void;

/**
 * The instance's one connection to the external broker: a `@stomp/stompjs` client speaking STOMP 1.2 over a `ws`
 * WebSocket with heart-beats, reconnecting with exponential back-off. Credentials come from the URL
 * (`ws://user:pass@host:15674/ws`). `onConnected` runs after every (re)connection: the broker has forgotten
 * earlier subscriptions by then.
 */
export class RelayConnection {
  private readonly logger = new Logger(RelayConnection.name);
  private readonly endpoint: string;
  private readonly client: Client;
  private wasConnected = false;

  constructor(url: URL, onConnected: () => void) {
    const endpoint = new URL(url);
    endpoint.username = endpoint.password = '';
    this.endpoint = endpoint.toString();
    this.client = new Client({
      webSocketFactory: () => new WebSocket(this.endpoint, ['v12.stomp'], { perMessageDeflate: false }),
      stompVersions: new Versions([Versions.V1_2]),
      connectHeaders: { host: '/', ...credentialsOf(url) },
      heartbeatIncoming: HEARTBEAT_MS,
      heartbeatOutgoing: HEARTBEAT_MS,
      heartbeatToleranceMultiplier: HEARTBEATS_MISSED,
      // A silent broker behind a dead network path would never answer a close handshake: drop the socket at once.
      discardWebsocketOnCommFailure: true,
      reconnectDelay: FIRST_RETRY_MS,
      reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
      maxReconnectDelay: MAX_RETRY_MS,
      onConnect: () => this.connected(onConnected),
      onStompError: (frame) => this.refused(frame.headers.message, frame.body),
      onWebSocketClose: () => this.closed(),
      onWebSocketError: (event: { message?: string }) =>
        this.logger.warn(`Relay connection error: ${event.message ?? 'unknown'}`),
    });
    this.client.activate();
  }

  isConnected(): boolean {
    return this.client.connected;
  }

  /** Sends when connected; returns false (and sends nothing) otherwise. */
  publish(destination: string, headers: StompHeaders, body: Buffer | string): boolean {
    if (!this.client.connected) return false;
    if (typeof body === 'string') this.client.publish({ destination, headers, body });
    else this.client.publish({ destination, headers, binaryBody: body });
    return true;
  }

  /** Subscribes when connected (returns false otherwise: `onConnected` is the time to subscribe again). */
  subscribe(id: string, destination: string, onMessage: RelayMessageHandler): boolean {
    if (!this.client.connected) return false;
    this.client.subscribe(destination, (message) => onMessage(bodyOf(message), message.headers), { id });
    return true;
  }

  /** When disconnected there is nothing to do: the broker has forgotten the subscription already. */
  unsubscribe(id: string): void {
    if (this.client.connected) this.client.unsubscribe(id);
  }

  stop(): Promise<void> {
    return this.client.deactivate({ force: true });
  }

  private connected(onConnected: () => void): void {
    this.wasConnected = true;
    this.logger.log(`Relaying broker destinations through ${this.endpoint}`);
    onConnected();
  }

  private refused(message = '', body = ''): void {
    this.logger.error(`Relay refused: ${message} ${body}`);
    this.client.forceDisconnect();
  }

  private closed(): void {
    if (this.wasConnected && this.client.active) {
      this.logger.error(`Relay connection to ${this.endpoint} lost; reconnecting`);
    }
    this.wasConnected = false;
  }
}

function credentialsOf({ username, password }: URL): StompHeaders {
  return username ? { login: decodeURIComponent(username), passcode: decodeURIComponent(password) } : {};
}

/** The body as stompjs parsed it, without a copy. */
function bodyOf({ binaryBody }: IMessage): Buffer {
  return Buffer.from(binaryBody.buffer, binaryBody.byteOffset, binaryBody.byteLength);
}
