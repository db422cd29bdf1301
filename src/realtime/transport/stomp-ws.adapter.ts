import { INestApplication } from '@nestjs/common';
import { AbstractWsAdapter } from '@nestjs/websockets';
import { IncomingMessage, Server } from 'node:http';
import { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { AppConfig } from '../../config';
import { StompSession } from '../session/stomp-session';

const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/** The STOMP session of each native WebSocket: set by the gateway on connection, fed by the adapter. */
const sessions = new WeakMap<WebSocket, StompSession>();

/** Called by the gateway's `handleConnection`, which Nest runs before {@link StompWsAdapter.bindMessageHandlers}. */
export function attachSession(client: WebSocket, session: StompSession): void {
  sessions.set(client, session);
}

/** For the gateway's `handleDisconnect`. */
export function sessionOf(client: WebSocket): StompSession | undefined {
  return sessions.get(client);
}

/**
 * Transport messages larger than a frame may be, so that an oversized frame reaches the parser and is answered
 * with ERROR; SockJS messages may also batch several frames. Larger messages are cut off by the transport.
 */
export function maxTransportMessageBytes(config: AppConfig): number {
  return config.stomp.maxFrameBytes * 4;
}

/**
 * Nest's WebSocket adapter for STOMP over `ws`, on the application's own HTTP server (`@WebSocketGateway`s on
 * port 0 only). Each gateway `path` gets a `noServer` WebSocketServer; one `upgrade` listener hands upgrades to
 * the server of their path and destroys the others. SockJS installs its handlers later (at bootstrap) and passes
 * on the upgrades outside its prefix to this listener. (No type arguments: ws's overloaded `on` does not fit
 * AbstractWsAdapter's `BaseWsInstance` constraint.)
 */
export class StompWsAdapter extends AbstractWsAdapter {
  private readonly servers = new Map<string, WebSocketServer>();
  private readonly maxPayload: number;
  private listening = false;

  /**
   * @param refusedUpgrade true when an upgrade must not be taken (the instance is shutting down); it has then
   *   answered the socket itself
   */
  constructor(
    app: INestApplication,
    private readonly refusedUpgrade: (socket: Duplex) => boolean = () => false,
  ) {
    super(app);
    this.maxPayload = maxTransportMessageBytes(app.get(AppConfig));
  }

  create(port: number, options: { path?: string } = {}): WebSocketServer {
    const path = options.path;
    if (port !== 0 || !path) throw new Error('STOMP gateways are served on the HTTP server: port 0 and a path');
    if (this.servers.has(path)) throw new Error(`A WebSocket gateway already serves ${path}`);
    const server = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: this.maxPayload,
      handleProtocols: (offered) => STOMP_SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
    });
    this.servers.set(path, server);
    this.listen();
    return server;
  }

  /** Both end a session: `error` (a protocol violation, an oversized message) comes before the closing handshake. */
  override bindClientDisconnect(client: WebSocket, callback: () => void): void {
    client.on('close', callback);
    client.on('error', callback);
  }

  /**
   * Messages are STOMP frames, not Nest's JSON `{event, data}` envelopes: the raw data goes to the client's STOMP
   * session (which parses frames across and within messages) instead of Nest's event routing, so the gateway's
   * `@SubscribeMessage` handlers (it has none) and `transform` are not used.
   */
  bindMessageHandlers(client: WebSocket): void {
    const session = sessions.get(client);
    if (!session) return void client.terminate();
    client.on('message', (data: Buffer) => session.receive(data));
  }

  override async close(server: WebSocketServer): Promise<void> {
    for (const [path, registered] of this.servers) if (registered === server) this.servers.delete(path);
    await super.close(server);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    (this.httpServer as Server).on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.refusedUpgrade(socket)) return;
      const server = this.servers.get(pathOf(request));
      if (!server) return void socket.destroy();
      server.handleUpgrade(request, socket, head, (ws) => server.emit('connection', ws, request));
    });
  }
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
