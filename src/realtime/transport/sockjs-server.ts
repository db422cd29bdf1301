import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createSockJsServer, ServerOptions } from 'sockjs';
import { AppConfig } from '../../config';
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
 */
@Injectable()
export class SockJsServer implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly protocol: StompProtocol,
    private readonly config: AppConfig,
    private readonly addresses: ClientAddresses,
  ) {}

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
    sockJs.on('connection', (connection) => {
      if (!connection) return;
      // SockJS keeps X-Forwarded-For among the few request headers it passes on.
      const address = this.addresses.of(connection.remoteAddress, connection.headers['x-forwarded-for']);
      const session = this.protocol.open(new SockJsTransport(connection, address));
      connection.on('data', (text: string) => session.receive(Buffer.from(text)));
      connection.on('close', () => session.close());
    });
    const ordinary = requestListeners(server);
    sockJs.installHandlers(server, { prefix: SOCKJS_PREFIX });
    routeRequests(server, ordinary, SOCKJS_PREFIX, maxMessageBytes);
  }
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

function requestListeners(server: Server): RequestListener[] {
  return server.listeners('request') as RequestListener[];
}

/**
 * SockJS puts its request hook (a `url.parse` and a regular expression) in front of every request; here requests
 * under `prefix` go to it and all others straight to the listeners it overshadowed (Express). SockJS also buffers
 * the whole body of its xhr_send/jsonp_send POSTs without a limit: such a request is dropped once it passes
 * `maxBytes`.
 */
function routeRequests(server: Server, ordinary: RequestListener[], prefix: string, maxBytes: number): void {
  const sockJs = requestListeners(server);
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith(prefix)) {
      for (const listener of ordinary) listener.call(server, request, response);
      return;
    }
    if (request.method === 'POST' && request.url.startsWith(`${prefix}/`)) limitBody(request, maxBytes);
    for (const listener of sockJs) listener.call(server, request, response);
  });
}

function limitBody(request: IncomingMessage, maxBytes: number): void {
  let received = 0;
  request.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) request.destroy();
  });
}
