import { EncodedFrame } from '../broker/encoded-frame';

/** A connection a STOMP session runs over (native WebSocket or SockJS). */
export interface StompTransport {
  send(frame: EncodedFrame): void;
  /** Closes after what was sent is flushed; idempotent. */
  close(): void;
  /** Bytes accepted by {@link send} but not yet written to the network. */
  readonly bufferedAmount: number;
  /** The client's address, for limits that count guests per address. */
  readonly remoteAddress: string;
}
