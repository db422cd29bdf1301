import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { StompProtocol } from '../session/stomp-protocol';
import { attachSession, sessionOf } from './stomp-ws.adapter';
import { WsTransport } from './ws-transport';

export const WS_PATH = '/ws';

/**
 * STOMP over native WebSocket at `/ws` (subprotocols `v12.stomp`, `v11.stomp`, `v10.stomp`), through
 * {@link StompWsAdapter}: each client gets a session of the DI-built {@link StompProtocol}.
 */
@WebSocketGateway({ path: WS_PATH })
export class StompWsGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  constructor(private readonly protocol: StompProtocol) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    attachSession(client, this.protocol.open(new WsTransport(client, request.socket.remoteAddress ?? '')));
  }

  handleDisconnect(client: WebSocket): void {
    sessionOf(client)?.close();
  }
}
