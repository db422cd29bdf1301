import { Connection } from 'sockjs';
import { EncodedFrame } from '../broker/encoded-frame';
import { StompTransport } from '../session/stomp-transport';

/** A SockJS connection. SockJS carries text only: binary bodies need the native WebSocket endpoint. */
export class SockJsTransport implements StompTransport {
  private open = true;

  constructor(
    private readonly connection: Connection,
    /** The client's address behind trusted proxies (see ClientAddresses). */
    readonly remoteAddress: string,
  ) {}

  send(frame: EncodedFrame): void {
    this.connection.write(frame.text);
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.connection.close();
  }

  /** SockJS exposes no send-queue size. */
  get bufferedAmount(): number {
    return 0;
  }
}
