import { EncodedFrame } from '../broker/encoded-frame';

/**
 * Why a session ends: its own course (DISCONNECT, an error, the client gone), or the server stopping, which clients
 * see as WebSocket's 1001 "going away" (a cue to reconnect, to another instance), on both transports.
 */
export type CloseReason = 'normal' | 'going-away';

/** The close code and reason each transport sends for a {@link CloseReason}. */
export const CLOSE_FRAMES: Record<CloseReason, { code: number; reason: string }> = {
  normal: { code: 1000, reason: 'Normal closure' },
  'going-away': { code: 1001, reason: 'Server shutting down' },
};

/** A connection a STOMP session runs over (native WebSocket or SockJS). */
export interface StompTransport {
  send(frame: EncodedFrame): void;
  /** Closes after what was sent is flushed; idempotent. */
  close(reason: CloseReason): void;
  /** Bytes accepted by {@link send} but not yet written to the network. */
  readonly bufferedAmount: number;
  /** The client's address, for limits that count guests per address. */
  readonly remoteAddress: string;
}
