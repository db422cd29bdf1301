import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { IncomingMessage, Server } from 'node:http';
import { Duplex } from 'node:stream';
import { createServer as createSockJsServer } from 'sockjs';
import { WebSocket, WebSocketServer } from 'ws';
import { REALTIME_CONFIG, RealtimeConfig } from '../realtime-config';
import { StompProtocol } from '../session/stomp-protocol';
import { SockJsTransport } from './sockjs-transport';
import { WsTransport } from './ws-transport';

export const WS_PATH = '/ws';
export const SOCKJS_PREFIX = '/sock';
const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * Serves STOMP on the application's own HTTP server: native WebSocket at `/ws`, SockJS under `/sock`.
 *
 * It attaches itself at bootstrap through `HttpAdapterHost` rather than through a `@WebSocketGateway`: a
 * gateway needs an adapter set process-wide in `main.ts` (and every test bootstrap), and Nest's gateway
 * model routes JSON `{event, data}` messages, not STOMP frames. Frames are handled by DI providers
 * (`StompProtocol` and the handlers it uses), so nothing is lost.
 */
@Injectable()
export class StompServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private webSockets?: WebSocketServer;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly protocol: StompProtocol,
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.serveWebSocket(server);
    this.serveSockJs(server);
  }

  beforeApplicationShutdown(): void {
    this.protocol.closeAll();
    this.webSockets?.close();
  }

  private serveWebSocket(server: Server): void {
    const webSockets = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      // Larger than a frame may be, so that an oversized frame is answered with a STOMP ERROR by the parser.
      maxPayload: this.config.maxFrameBytes * 4,
      handleProtocols: (offered) => STOMP_SUBPROTOCOLS.find((p) => offered.has(p)) ?? false,
    });
    this.webSockets = webSockets;
    // Registered before SockJS, which passes on the upgrades that are not under its prefix.
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(request) !== WS_PATH) return void socket.destroy();
      webSockets.handleUpgrade(request, socket, head, (ws) => this.openWebSocket(ws, request.socket.remoteAddress ?? ''));
    });
  }

  private openWebSocket(ws: WebSocket, remoteAddress: string): void {
    const session = this.protocol.open(new WsTransport(ws, remoteAddress));
    ws.on('message', (data: Buffer) => session.receive(data));
    ws.on('close', () => session.close());
    ws.on('error', () => session.close());
  }

  private serveSockJs(server: Server): void {
    const sockJs = createSockJsServer({ prefix: SOCKJS_PREFIX, log: () => undefined });
    sockJs.on('connection', (connection) => {
      if (!connection) return;
      const session = this.protocol.open(new SockJsTransport(connection));
      connection.on('data', (text: string) => session.receive(Buffer.from(text)));
      connection.on('close', () => session.close());
    });
    sockJs.installHandlers(server, { prefix: SOCKJS_PREFIX });
  }
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
