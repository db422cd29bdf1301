import {
  HttpException,
  HttpStatus,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
  OnApplicationBootstrap,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { Connection, createServer as createSockJsServer, ServerOptions } from 'sockjs';
import { toErrorBody } from '../../common/errors';
import { AppConfig } from '../../config';
import { StompSession } from '../session/stomp-session';
import { StompProtocol } from '../session/stomp-protocol';
import { ClientAddresses } from './client-addresses';
import { SockJsTransport } from './sockjs-transport';
import { maxTransportMessageBytes } from './stomp-ws.adapter';

export const SOCKJS_PREFIX = '/sock';

/**
 * Serves STOMP over SockJS under `/sock` on the application's own HTTP server, on the same {@link StompProtocol}
 * as the `/ws` gateway. It is not a gateway: Nest holds one WebSocket adapter per application, and SockJS is an
 * HTTP handler (polling, streaming and its own WebSocket transport) rather than a `ws` server. Installed at
 * bootstrap, after the gateway's `upgrade` listener, to which SockJS passes on the upgrades outside its prefix.
 * Its requests do not pass Express, so it follows the shutdown drain itself ({@link followDrain}): from the signal on
 * it opens no session (every request under the prefix but those of open sessions answered 503, upgrades too) and
 * closes the open ones, whose clients then reconnect, to another instance behind a proxy.
 */
@Injectable()
export class SockJsServer implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly protocol: StompProtocol,
    private readonly config: AppConfig,
    private readonly addresses: ClientAddresses,
  ) {}

  private readonly open = new OpenSessions();
  private drain?: ShutdownSignal;

  /** Set by `createApp` (the drain belongs to a layer above this one), as the WebSocket adapter's refusal is. */
  followDrain(drain: ShutdownSignal): void {
    this.drain = drain;
    drain.onBegin(() => this.open.closeAll());
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server) this.serve(server);
  }

  private serve(server: Server): void {
    const maxMessageBytes = maxTransportMessageBytes(this.config);
    // faye_server_options (the WebSocket transport's message limit, default 64 MiB) is missing from @types/sockjs.
    const options: ServerOptions & { faye_server_options: { maxLength: number } } = {
      prefix: SOCKJS_PREFIX,
      log: () => undefined,
      faye_server_options: { maxLength: maxMessageBytes },
    };
    const sockJs = createSockJsServer(options);
    const open = this.open;
    sockJs.on('connection', (connection) => {
      if (!connection) return;
      // SockJS keeps X-Forwarded-For among the few request headers it passes on.
      const address = this.addresses.of(connection.remoteAddress, connection.headers['x-forwarded-for']);
      const session = this.protocol.open(new SockJsTransport(connection, address));
      const forget = open.add(connection, session);
      connection.on('data', (text: string) => session.receive(Buffer.from(text)));
      connection.on('close', () => {
        forget();
        session.close();
      });
    });
    // What sockJs.installHandlers does, by hand: its listener's app is needed to change how it answers errors.
    const listener = (sockJs as unknown as SockJsInternals).listener({ prefix: SOCKJS_PREFIX });
    answerClientMistakesAs4xx(listener.app);
    const handler = listener.getHandler();
    routeUpgrades(server, handler, (socket) => this.drain?.refusedUpgrade(socket) ?? false);
    const refused = (request: IncomingMessage) => this.drain?.draining === true && !open.serves(request.url ?? '');
    routeRequests(server, handler, SOCKJS_PREFIX, maxMessageBytes, refused);
  }
}

/** What SockJS needs of the shutdown drain (`ShutdownDrain`). */
export interface ShutdownSignal {
  readonly draining: boolean;
  /** `listener` runs when the drain begins. */
  onBegin(listener: () => void): void;
  /** True (and the socket answered 503 and closed) when an upgrade must not be taken. */
  refusedUpgrade(socket: Duplex): boolean;
}

/** SockJS's connection as far as its types leave it out (0.3.24, pinned): the id of its session (polling ones). */
interface SockJsConnectionInternals {
  _session?: { session_id?: string | null };
}

/**
 * The open SockJS sessions: their STOMP sessions, to close them when a drain begins, and the ids SockJS gave them
 * (in the URLs of their polling and sending requests), so that those requests are still served while the drain
 * refuses new sessions: the close frame reaches a polling client through its next poll.
 */
class OpenSessions {
  private readonly sessions = new Set<StompSession>();
  private readonly ids = new Set<string>();

  /** @returns a function that forgets the session again, once SockJS has closed it */
  add(connection: Connection, session: StompSession): () => void {
    const id = (connection as unknown as SockJsConnectionInternals)._session?.session_id ?? undefined;
    this.sessions.add(session);
    if (id) this.ids.add(id);
    return () => {
      this.sessions.delete(session);
      if (id) this.ids.delete(id);
    };
  }

  closeAll(): void {
    for (const session of this.sessions) session.close('going-away');
  }

  /** Whether `url` (`/sock/<server>/<session>/<transport>`) is a request of an open session. */
  serves(url: string): boolean {
    const sessionId = url.split('?')[0].slice(SOCKJS_PREFIX.length).split('/')[2];
    return sessionId !== undefined && this.ids.has(sessionId);
  }
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;
type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
/** SockJS's handler of requests and upgrades: true when the URL is under its prefix (it has answered). */
type SockJsHandler = (request: IncomingMessage, response: ServerResponse | Duplex, head?: Buffer) => boolean;

/** The parts of SockJS 0.3.24 (pinned) that its types leave out. */
interface SockJsInternals {
  listener(options: { prefix: string }): { app: SockJsApp; getHandler(): SockJsHandler };
}

/**
 * Upgrades under the prefix go to SockJS (its own WebSocket transport) unless `refused` answered them (a drain), the
 * others to the gateway's listener.
 */
function routeUpgrades(server: Server, handler: SockJsHandler, refused: (socket: Duplex) => boolean): void {
  const ordinary = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (request.url?.startsWith(SOCKJS_PREFIX) && refused(socket)) return;
    if (handler(request, socket, head)) return;
    for (const listener of ordinary) listener.call(server, request, socket, head);
  });
}

/**
 * SockJS's own hook would run a `url.parse` and a regular expression in front of every request; here only requests
 * under `prefix` go to it and all others straight to Express. SockJS also buffers the whole body of its
 * xhr_send/jsonp_send POSTs without a limit: such a request is answered 413 once it passes `maxBytes` (see
 * {@link refuseLargeBodies}). A request under `prefix` that `refused` names (a new session while a shutdown drains)
 * is answered 503 with `Connection: close` and `Retry-After`, as the drain answers the others.
 */
function routeRequests(
  server: Server,
  handler: SockJsHandler,
  prefix: string,
  maxBytes: number,
  refused: (request: IncomingMessage) => boolean,
): void {
  const ordinary = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith(prefix)) {
      if (refused(request)) return refuseWhileDraining(request, response);
      const post = request.method === 'POST' && request.url.startsWith(`${prefix}/`);
      if (post && refuseLargeBodies(request, response, maxBytes)) return;
      if (handler(request, response)) return;
    }
    for (const listener of ordinary) listener.call(server, request, response);
  });
}

/**
 * Answers 413 for a body above `maxBytes`: at once when its `Content-Length` says so (SockJS never sees the
 * request), otherwise when the bytes received pass it, taking the body away from SockJS (its `data` and `end`
 * listeners) so that no part of it reaches a session. The rest of the body is read and discarded (Node does so for
 * a request whose response has ended), so the client reads the answer instead of a connection reset; Node's
 * `requestTimeout` bounds that.
 * @returns true when the request was answered here
 */
function refuseLargeBodies(request: IncomingMessage, response: ServerResponse, maxBytes: number): boolean {
  const refuse = () => {
    sendErrorBody(
      request,
      response,
      new PayloadTooLargeException(`Request body exceeds the limit of ${maxBytes} bytes`),
    );
    request.resume();
  };
  if (Number(request.headers['content-length']) > maxBytes) {
    refuse();
    return true;
  }
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) return;
    request.removeAllListeners('data');
    request.removeAllListeners('end');
    refuse();
  };
  request.on('data', count);
  return false;
}

function refuseWhileDraining(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('Connection', 'close');
  response.setHeader('Retry-After', '1');
  const message = 'This instance is shutting down; the request was not processed, retry it';
  sendErrorBody(request, response, new ServiceUnavailableException(message));
  request.resume();
}

/** What SockJS (0.3.24, pinned) throws internally: `status` 0 means "answered", the others are meant as answers. */
interface SockJsThrown {
  status: number;
  message?: string;
}

interface SockJsApp {
  handle_error(request: IncomingMessage, response: ServerResponse, thrown: unknown): unknown;
  handle_404(request: IncomingMessage, response: ServerResponse): unknown;
}

/**
 * SockJS answers a client's mistakes (no payload, a body that is not a JSON array of strings, a missing or invalid
 * `c=` callback of jsonp/htmlfile) by throwing `{status: 500, message}`: here they become 400s, and every answer of
 * its error handler and of its 404 (an unknown session or path) the DESIGN §3 body. Anything else thrown is a real
 * failure: a bare 500, no internals.
 */
function answerClientMistakesAs4xx(app: SockJsApp): void {
  app.handle_error = (request, response, thrown) => {
    if (response.writableEnded) return thrown;
    sendErrorBody(request, response, asHttpException(thrown));
    return true;
  };
  app.handle_404 = (request, response) => {
    if (!response.writableEnded) sendErrorBody(request, response, new NotFoundException('No such SockJS session'));
    return true;
  };
}

function asHttpException(thrown: unknown): HttpException {
  if (typeof thrown !== 'object' || thrown === null || !('status' in thrown)) {
    return new InternalServerErrorException();
  }
  const { status, message } = thrown as SockJsThrown;
  const text = message || STATUS_CODES[status] || 'Error';
  return new HttpException(text, status >= HttpStatus.INTERNAL_SERVER_ERROR ? HttpStatus.BAD_REQUEST : status);
}

/** SockJS requests do not pass Express: the request id is made here, as `httpFront` does for the others. */
function sendErrorBody(request: IncomingMessage, response: ServerResponse, exception: HttpException): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const requestId = randomUUID();
  const body = toErrorBody(exception, (request.url ?? '').split('?')[0], requestId);
  const text = JSON.stringify(body);
  response.writeHead(body.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': requestId,
  });
  response.end(text);
}
