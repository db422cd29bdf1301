import { Client, IFrame, IMessage, IStompSocket, ReconnectionTimeMode, StompHeaders } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { toArgumentForm, ArgumentForm } from './argument-forms';
import { CcbError, isErrorBody } from './errors';
import type { Beans } from './generated/beans';
import { beanProxies } from './bean-proxies';
import type { Destination, PayloadOf, Reply } from './topics';

/** `auto`: WebSocket, falling back to SockJS for good when a WebSocket cannot be opened (proxies that block it). */
export type Transport = 'auto' | 'websocket' | 'sockjs';

/** A WebSocket class: by default the platform's (browsers, Node 22+), else the `ws` package's when installed. */
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
  private readonly connectFailures = new Set<(error: CcbError) => void>();
  private useSockJs: boolean;
  private webSocketClass?: WebSocketClass;
  private activating = false;
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
      onStompError: (frame) => this.refused(frame),
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

  /**
   * Opens the connection (if needed) and resolves once a STOMP session is established.
   * @throws CcbError with the server's refusal of `CONNECT` (its ERROR frame), or `NETWORK_ERROR` when no session
   * is established within `callTimeoutMs` (the client keeps trying in the background)
   */
  connect(): Promise<void> {
    if (this.stomp.connected) return Promise.resolve();
    const connected = this.connectWithin(this.options.callTimeoutMs ?? 15_000);
    if (!this.stomp.active && !this.activating) void this.activate();
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

  private async activate(): Promise<void> {
    this.activating = true;
    try {
      this.webSocketClass = await findWebSocketClass(this.options.webSocket);
    } finally {
      this.activating = false;
    }
    if (!this.webSocketClass) this.useSockJs = true;
    this.stomp.activate();
  }

  private connectWithin(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (error?: CcbError): void => {
        clearTimeout(timer);
        this.connectListeners.delete(connected);
        this.connectFailures.delete(settle);
        if (error) reject(error);
        else resolve();
      };
      const connected = (): void => settle();
      const timer = setTimeout(() => settle(noSession(timeoutMs)), timeoutMs);
      this.connectListeners.add(connected);
      this.connectFailures.add(settle);
    });
  }

  /** An ERROR frame: the server refused the session (bad context header or token) and closes it. */
  private refused(frame: IFrame): void {
    const error = errorOfFrame(frame);
    for (const fail of [...this.connectFailures]) fail(error);
  }

  private openSocket(): IStompSocket {
    this.socketConnected = false;
    if (this.useSockJs || !this.webSocketClass) return new SockJS(`${this.context.baseUrl}/sock`);
    const url = `${this.context.baseUrl.replace(/^http/, 'ws')}/ws`;
    return new this.webSocketClass(url, STOMP_PROTOCOLS) as IStompSocket;
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

/** The name is a variable so that bundlers for browsers (which have a WebSocket) do not try to resolve `ws`. */
const WS_PACKAGE = 'ws';

/** The given class, the platform's, else the `ws` package's when installed; none: SockJS it is. */
async function findWebSocketClass(given?: WebSocketClass): Promise<WebSocketClass | undefined> {
  const found = given ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  if (found) return found;
  try {
    const ws = (await import(WS_PACKAGE)) as { default?: WebSocketClass; WebSocket?: WebSocketClass };
    return ws.WebSocket ?? ws.default;
  } catch {
    return undefined;
  }
}

function noSession(timeoutMs: number): CcbError {
  return CcbError.local('NETWORK_ERROR', 'Network Error', `No STOMP session within ${timeoutMs} ms`);
}

function errorOfFrame(frame: IFrame): CcbError {
  const message = frame.headers.message ?? 'The server refused the session';
  try {
    const body: unknown = JSON.parse(frame.body);
    if (isErrorBody(body)) return new CcbError({ ...body, requestId: body.requestId ?? '' });
  } catch {
    // A text/plain ERROR frame: its code header says what happened.
  }
  const fromHeader = { code: frame.headers.code, status: 0, error: 'STOMP ERROR', message, requestId: '' };
  return isErrorBody(fromHeader) ? new CcbError(fromHeader) : CcbError.local('BAD_RESPONSE', 'STOMP ERROR', message);
}

function noAnswer(id: string): Reply {
  return { actionId: id, code: 'NO_REPLY', status: 0, error: 'Timeout', message: `No answer to ${id}`, requestId: '' };
}

function toError(answer: Reply | 'receipt'): CcbError {
  if (answer !== 'receipt' && isErrorBody(answer)) {
    return new CcbError({ ...answer, requestId: answer.requestId ?? '' });
  }
  return CcbError.local('BAD_RESPONSE', 'Bad Response', 'The server answered with something that is not a reply');
}
