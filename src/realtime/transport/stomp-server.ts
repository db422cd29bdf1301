import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { createServer as createSockJsServer, ServerOptions } from 'sockjs';
import { WebSocket, WebSocketServer } from 'ws';
import { AppConfig } from '../../config';
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
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.serveWebSocket(server);
    this.serveSockJs(server);
  }

  /**
   * Larger than a frame may be, so that an oversized frame reaches the parser and is answered with ERROR; SockJS
   * messages may also batch several frames.
   */
  private get maxMessageBytes(): number {
    return this.config.stomp.maxFrameBytes * 4;
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
      maxPayload: this.maxMessageBytes,
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
    const maxMessageBytes = this.maxMessageBytes;
    // faye_server_options (the WebSocket transport's message limit, default 64 MiB) is missing from @types/sockjs.
    const options: ServerOptions & { faye_server_options: { maxLength: number } } = {
      prefix: SOCKJS_PREFIX,
      log: () => undefined,
      faye_server_options: { maxLength: maxMessageBytes },
    };
    const sockJs = createSockJsServer(options);
    sockJs.on('connection', (connection) => {
      if (!connection) return;
      const session = this.protocol.open(new SockJsTransport(connection));
      connection.on('data', (text: string) => session.receive(Buffer.from(text)));
      connection.on('close', () => session.close());
    });
    sockJs.installHandlers(server, { prefix: SOCKJS_PREFIX });
    limitPostBodies(server, SOCKJS_PREFIX, maxMessageBytes);
  }
}

/**
 * SockJS buffers the whole body of its xhr_send/jsonp_send POSTs without a limit; the request is dropped once
 * it passes `maxBytes`. Runs ahead of the listeners in place (SockJS's among them), as SockJS itself does.
 */
function limitPostBodies(server: Server, prefix: string, maxBytes: number): void {
  const listeners = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'POST' && request.url?.startsWith(`${prefix}/`)) {
      let received = 0;
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) request.destroy();
      });
    }
    for (const listener of listeners) listener.call(server, request, response);
  });
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
