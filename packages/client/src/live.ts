import { Client, IMessage, IStompSocket, ReconnectionTimeMode, StompHeaders } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { toArgumentForm, ArgumentForm } from './argument-forms';
import { CcbError, isErrorBody } from './errors';
import type { Beans } from './generated/beans';
import { beanProxies } from './bean-proxies';
import type { Destination, PayloadOf, Reply } from './topics';

/** `auto`: WebSocket, falling back to SockJS for good when a WebSocket cannot be opened (proxies that block it). */
export type Transport = 'auto' | 'websocket' | 'sockjs';

/** A WebSocket class: the browser's by default; in Node 20 pass the `ws` package's. */
export type WebSocketClass = new (url: string, protocols?: string | string[]) => unknown;

export interface LiveOptions {
  transport?: Transport;
  webSocket?: WebSocketClass;
  /** How long a bean call over STOMP waits for its reply; 15 s by default. */
  callTimeoutMs?: number;
  /** First delay before reconnecting; doubles on each failed attempt up to `maxReconnectDelayMs`. 500 ms by default. */
  reconnectDelayMs?: number;
  /** 15 s by default. */
  maxReconnectDelayMs?: number;
}

export interface LiveContext {
  baseUrl: string;
  site: string;
  lang: string;
  argumentForm: ArgumentForm;
  token(): string | undefined;
  onTokenChange(listener: () => void): () => void;
}

export interface LiveSubscription {
  readonly destination: string;
  unsubscribe(): void;
}

interface Registration {
  destination: string;
  handler: (payload: unknown, message: IMessage) => void;
  unsubscribe?: () => void;
}

interface Pending {
  resolve(reply: Reply | 'receipt'): void;
  timer?: ReturnType<typeof setTimeout>;
}

const STOMP_PROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * STOMP over WebSocket or SockJS (DESIGN §5): typed subscriptions that survive reconnects, and bean calls sent to
 * `/request/bean` whose replies are matched by `actionId` on `/user/topic/{site}/json`. The connection opens on the
 * first use, reconnects with exponential back-off (subscriptions are renewed), and reconnects when the token changes
 * (the server fixes a session's identity at CONNECT).
 */
export class LiveClient {
  /** The same beans as `client.beans`, called over STOMP. */
  readonly beans: Beans;
  private readonly stomp: Client;
  private readonly registrations = new Set<Registration>();
  private readonly pending = new Map<string, Pending>();
  private readonly connectListeners = new Set<() => void>();
  private readonly stopWatchingToken: () => void;
  private useSockJs: boolean;
  private socketConnected = false;
  private sequence = 0;

  constructor(
    private readonly context: LiveContext,
    private readonly options: LiveOptions = {},
  ) {
    this.useSockJs = options.transport === 'sockjs';
    this.stomp = new Client({
      webSocketFactory: () => this.openSocket(),
      beforeConnect: () => {
        this.stomp.connectHeaders = this.connectHeaders();
      },
      reconnectDelay: options.reconnectDelayMs ?? 500,
      maxReconnectDelay: options.maxReconnectDelayMs ?? 15_000,
      reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
      onConnect: () => this.connected(),
      onWebSocketClose: () => this.socketClosed(),
      debug: () => undefined,
    });
    this.beans = beanProxies((beanId, functionName, args) => this.call(beanId, functionName, args));
    this.stopWatchingToken = context.onTokenChange(() => {
      if (this.stomp.active) this.stomp.forceDisconnect();
    });
  }

  /** Whether a STOMP session is open right now. */
  get isConnected(): boolean {
    return this.stomp.connected;
  }

  /** The transport of the current or next connection. */
  get transport(): 'websocket' | 'sockjs' {
    return this.useSockJs ? 'sockjs' : 'websocket';
  }

  /** Opens the connection (if needed) and resolves once a STOMP session is established. */
  connect(): Promise<void> {
    if (this.stomp.connected) return Promise.resolve();
    const connected = this.nextConnect();
    if (!this.stomp.active) this.stomp.activate();
    return connected;
  }

  /** Resolves on the next established session (e.g. after a reconnect). */
  nextConnect(): Promise<void> {
    return new Promise((resolve) => {
      const listener = (): void => {
        this.connectListeners.delete(listener);
        resolve();
      };
      this.connectListeners.add(listener);
    });
  }

  /**
   * Follows `destination`; resolves once the server confirmed it, renews it after every reconnect.
   * @throws CcbError with the server's refusal (403 "Access denied" for a topic the caller may not follow)
   */
  async subscribe<D extends Destination>(
    destination: D,
    handler: (payload: PayloadOf<D>, message: IMessage) => void,
  ): Promise<LiveSubscription> {
    await this.connect();
    const registration: Registration = { destination, handler: handler as Registration['handler'] };
    this.registrations.add(registration);
    try {
      await this.subscribeOnServer(registration);
    } catch (error) {
      this.registrations.delete(registration);
      throw error;
    }
    return {
      destination,
      unsubscribe: () => {
        this.registrations.delete(registration);
        if (this.stomp.connected) registration.unsubscribe?.();
      },
    };
  }

  /** A bean call over STOMP; @throws CcbError with the error reply, or status 0 when no reply came in time. */
  async call(beanId: string, functionName: string, args: readonly unknown[]): Promise<unknown> {
    await this.connect();
    const actionId = this.nextId('call');
    const reply = this.awaitReply(actionId, this.options.callTimeoutMs ?? 15_000);
    const body = { beanId, functionName, args: toArgumentForm(args, this.context.argumentForm), actionId };
    this.stomp.publish({ destination: '/request/bean', body: JSON.stringify(body) });
    const answer = await reply;
    if (answer === 'receipt' || isErrorBody(answer)) throw toError(answer);
    return answer.payload;
  }

  async disconnect(): Promise<void> {
    this.stopWatchingToken();
    await this.stomp.deactivate();
    for (const [id, pending] of this.pending) this.settle(id, pending, undefined);
  }

  private openSocket(): IStompSocket {
    this.socketConnected = false;
    if (this.useSockJs) return new SockJS(`${this.context.baseUrl}/sock`);
    const WebSocketImpl = this.options.webSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
    if (!WebSocketImpl) throw new Error('No WebSocket class: pass live.webSocket (e.g. the ws package in Node 20)');
    const url = `${this.context.baseUrl.replace(/^http/, 'ws')}/ws`;
    return new WebSocketImpl(url, STOMP_PROTOCOLS) as IStompSocket;
  }

  private connectHeaders(): StompHeaders {
    const headers: StompHeaders = { 'Site-Context': this.context.site, 'Lang-Context': this.context.lang };
    const token = this.context.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  private connected(): void {
    this.socketConnected = true;
    this.stomp.subscribe(`/user/topic/${this.context.site}/json`, (message) => this.replied(message));
    for (const registration of this.registrations) {
      this.subscribeOnServer(registration).catch(() => this.registrations.delete(registration));
    }
    for (const listener of [...this.connectListeners]) listener();
  }

  /** A socket that closed before any session was established means WebSocket is blocked: `auto` tries SockJS. */
  private socketClosed(): void {
    if (!this.socketConnected && (this.options.transport ?? 'auto') === 'auto') this.useSockJs = true;
  }

  private async subscribeOnServer(registration: Registration): Promise<void> {
    const receipt = this.nextId('sub');
    const answer = this.awaitReply(receipt, this.options.callTimeoutMs ?? 15_000);
    this.stomp.watchForReceipt(receipt, () => this.settle(receipt, this.pending.get(receipt), 'receipt'));
    const subscription = this.stomp.subscribe(
      registration.destination,
      (message) => registration.handler(JSON.parse(message.body) as unknown, message),
      { receipt },
    );
    registration.unsubscribe = () => subscription.unsubscribe();
    const result = await answer;
    if (result !== 'receipt') throw toError(result);
  }

  private awaitReply(id: string, timeoutMs: number): Promise<Reply | 'receipt'> {
    return new Promise((resolve) => {
      const pending: Pending = { resolve };
      pending.timer = setTimeout(() => this.settle(id, pending, undefined), timeoutMs);
      this.pending.set(id, pending);
    });
  }

  private replied(message: IMessage): void {
    const reply = JSON.parse(message.body) as Reply;
    const id = reply.actionId === null || reply.actionId === undefined ? '' : String(reply.actionId);
    this.settle(id, this.pending.get(id), reply);
  }

  /** `undefined`: no answer (timeout or disconnect), answered as a local 0 error. */
  private settle(id: string, pending: Pending | undefined, answer: Reply | 'receipt' | undefined): void {
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    pending.resolve(answer ?? noAnswer(id));
  }

  private nextId(kind: string): string {
    this.sequence += 1;
    return `${kind}-${this.sequence}-${Math.random().toString(36).slice(2, 10)}`;
  }
}

function noAnswer(id: string): Reply {
  return { actionId: id, status: 0, error: 'Timeout', message: `No answer to ${id}`, requestId: '' };
}

function toError(answer: Reply | 'receipt'): CcbError {
  if (answer !== 'receipt' && isErrorBody(answer)) {
    return new CcbError({ ...answer, requestId: answer.requestId ?? '' });
  }
  return CcbError.local('Bad Response', 'The server answered with something that is not a reply');
}
