import { Connection } from 'sockjs';
import { EncodedFrame } from '../broker/encoded-frame';
import { CLOSE_FRAMES, CloseReason, StompTransport } from '../session/stomp-transport';

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

  close(reason: CloseReason): void {
    if (!this.open) return;
    this.open = false;
    const { code, reason: text } = CLOSE_FRAMES[reason];
    // SockJS writes the code into its close frame as JSON, where clients read a number; @types/sockjs says string.
    this.connection.close(code as unknown as string, text);
  }

  /** SockJS exposes no send-queue size. */
  get bufferedAmount(): number {
    return 0;
  }
}
