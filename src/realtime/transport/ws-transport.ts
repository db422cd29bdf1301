import { WebSocket } from 'ws';
import { EncodedFrame } from '../broker/encoded-frame';
import { CLOSE_FRAMES, CloseReason, StompTransport } from '../session/stomp-transport';

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

  close(reason: CloseReason): void {
    const { code, reason: text } = CLOSE_FRAMES[reason];
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(code, text);
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }
}
