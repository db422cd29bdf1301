import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { StompProtocol } from '../session/stomp-protocol';
import { ClientAddresses } from './client-addresses';
import { attachSession, sessionOf } from './stomp-ws.adapter';
import { WsTransport } from './ws-transport';

export const WS_PATH = '/ws';

/**
 * STOMP over native WebSocket at `/ws` (subprotocols `v12.stomp`, `v11.stomp`, `v10.stomp`), through
 * {@link StompWsAdapter}: each client gets a session of the DI-built {@link StompProtocol}.
 */
@WebSocketGateway({ path: WS_PATH })
export class StompWsGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  constructor(
    private readonly protocol: StompProtocol,
    private readonly addresses: ClientAddresses,
  ) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    const address = this.addresses.of(request.socket.remoteAddress, request.headers['x-forwarded-for']);
    attachSession(client, this.protocol.open(new WsTransport(client, address)));
  }

  handleDisconnect(client: WebSocket): void {
    sessionOf(client)?.close();
  }
}
