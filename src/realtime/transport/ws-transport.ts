import { WebSocket } from 'ws';
import { EncodedFrame } from '../broker/encoded-frame';
import { StompTransport } from '../session/stomp-transport';

const TEXT = { binary: false };
const BINARY = { binary: true };

/** A native WebSocket; frames whose body is not UTF-8 go as binary messages. */
export class WsTransport implements StompTransport {
  constructor(
    private readonly socket: WebSocket,
    readonly remoteAddress: string,
  ) {}

  send(frame: EncodedFrame): void {
    this.socket.send(frame.bytes, frame.binary ? BINARY : TEXT);
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }
}
