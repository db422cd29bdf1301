import { Client, IFrame, IMessage, StompHeaders } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import WebSocket from 'ws';

export type Transport = 'ws' | 'sockjs';

export interface ConnectOptions {
  token?: string;
  transport?: Transport;
  headers?: StompHeaders;
  heartbeat?: [number, number];
  /** HTTP headers of the WebSocket upgrade request (`ws` only), e.g. what a proxy adds. */
  upgradeHeaders?: Record<string, string>;
}

/**
 * How long `next` waits for a message by default: a bound, not an expectation (a message that arrives ends the wait),
 * generous for a loaded machine, where a message took seconds.
 */
const WAIT_MS = 30_000;

/** A real `@stomp/stompjs` client with helpers that wait for messages. */
export class TestStompClient {
  readonly inbox = new Map<string, IMessage[]>();
  private readonly waiters: Array<() => void> = [];
  errors: IFrame[] = [];
  private stopped = false;

  private constructor(readonly client: Client) {}

  static async connect(
    baseUrl: string,
    options: ConnectOptions = {},
  ): Promise<TestStompClient & { connected: IFrame }> {
    const { token, transport = 'ws', headers = {}, heartbeat = [0, 0], upgradeHeaders = {} } = options;
    const connectHeaders: StompHeaders = { ...headers };
    if (token) connectHeaders.Authorization = `Bearer ${token}`;
    const client = new Client({
      webSocketFactory: () =>
        transport === 'ws'
          ? new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
              headers: upgradeHeaders,
            })
          : new SockJS(`${baseUrl}/sock`),
      connectHeaders,
      heartbeatOutgoing: heartbeat[0],
      heartbeatIncoming: heartbeat[1],
      reconnectDelay: 0,
      debug: () => undefined,
    });
    const wrapper = new TestStompClient(client);
    const connected = await new Promise<IFrame>((resolve, reject) => {
      client.onConnect = resolve;
      client.onStompError = (frame) => reject(new Error(`STOMP ERROR ${frame.headers.message}`));
      client.onWebSocketError = () => reject(new Error('WebSocket error'));
      client.activate();
    });
    client.onStompError = (frame) => {
      wrapper.errors.push(frame);
      wrapper.notify();
    };
    return Object.assign(wrapper, { connected });
  }

  /** Subscribes and waits for the RECEIPT, so that later publications reach it. */
  async subscribe(destination: string): Promise<void> {
    const receipt = `sub-${destination}-${Math.random()}`;
    const done = this.receipt(receipt);
    this.client.subscribe(destination, (message) => this.collect(destination, message), { receipt });
    await done;
  }

  receipt(id: string): Promise<IFrame> {
    return new Promise((resolve) => this.client.watchForReceipt(id, resolve));
  }

  send(destination: string, body: unknown, headers: StompHeaders = {}): void {
    this.client.publish({ destination, body: JSON.stringify(body), headers });
  }

  /** Waits for the next message on `destination` that satisfies `accept`, parsed as JSON. */
  async next<T = Record<string, unknown>>(
    destination: string,
    accept: (body: T) => boolean = () => true,
    timeoutMs = WAIT_MS,
  ): Promise<T> {
    return JSON.parse((await this.nextMessage(destination, accept, timeoutMs)).body) as T;
  }

  /** As `next`, but the whole message, headers included. */
  async nextMessage<T = Record<string, unknown>>(
    destination: string,
    accept: (body: T) => boolean = () => true,
    timeoutMs = WAIT_MS,
  ): Promise<IMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.take<T>(destination, accept);
      if (found !== undefined) return found;
      if (this.stopped || Date.now() > deadline) throw new Error(`No message on ${destination} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  messages(destination: string): IMessage[] {
    return this.inbox.get(destination) ?? [];
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    await this.client.deactivate();
  }

  private take<T>(destination: string, accept: (body: T) => boolean): IMessage | undefined {
    const list = this.messages(destination);
    const index = list.findIndex((m) => accept(JSON.parse(m.body) as T));
    return index < 0 ? undefined : list.splice(index, 1)[0];
  }

  private collect(destination: string, message: IMessage): void {
    const list = this.inbox.get(destination) ?? [];
    list.push(message);
    this.inbox.set(destination, list);
    this.notify();
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
