import { Logger } from '@nestjs/common';
import { WebSocket } from 'ws';
import { StompFrame } from '../stomp/frame';
import { encodeFrame, HeaderList } from '../stomp/frame-encoder';
import { StompFrameParser } from '../stomp/frame-parser';

const HEARTBEAT_MS = 10_000;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export interface RelayEvents {
  /** After every (re)connection: the broker has forgotten earlier subscriptions. */
  onConnected(): void;
  onMessage(frame: StompFrame): void;
}

/**
 * The instance's one connection to the external broker: STOMP 1.2 over WebSocket with heart-beats,
 * reconnecting with exponential back-off. Credentials come from the URL (`ws://user:pass@host:15674/ws`).
 */
export class RelayConnection {
  private readonly logger = new Logger(RelayConnection.name);
  private readonly endpoint: string;
  private readonly connectFrame: Buffer;
  private socket?: WebSocket;
  private connected = false;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private lastRead = 0;
  private readonly keepAlive = setInterval(() => this.beat(), HEARTBEAT_MS).unref();

  constructor(
    url: URL,
    private readonly events: RelayEvents,
  ) {
    const { username, password } = url;
    const headers: HeaderList = [
      ['accept-version', '1.2'],
      ['host', '/'],
      ['heart-beat', `${HEARTBEAT_MS},${HEARTBEAT_MS}`],
    ];
    const credentials: HeaderList = username
      ? [
          ['login', decodeURIComponent(username)],
          ['passcode', decodeURIComponent(password)],
        ]
      : [];
    this.connectFrame = encodeFrame('CONNECT', [...headers, ...credentials], '1.2');
    const endpoint = new URL(url);
    endpoint.username = endpoint.password = '';
    this.endpoint = endpoint.toString();
    this.open();
  }

  isConnected(): boolean {
    return this.connected;
  }

  /** Sends when connected; returns false (and drops the frame) otherwise. */
  send(command: string, headers: HeaderList, body?: Buffer | string): boolean {
    if (!this.connected || !this.socket) return false;
    this.socket.send(encodeFrame(command, headers, '1.2', body));
    return true;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.keepAlive);
    this.socket?.terminate();
  }

  private open(): void {
    const socket = new WebSocket(this.endpoint, ['v12.stomp'], { perMessageDeflate: false });
    const parser = new StompFrameParser({ maxFrameBytes: MAX_FRAME_BYTES, maxHeaders: 256 });
    this.socket = socket;
    socket.on('open', () => socket.send(this.connectFrame));
    socket.on('message', (data: Buffer) => {
      this.lastRead = Date.now();
      try {
        parser.push(data, (frame) => this.onFrame(frame));
      } catch (error) {
        this.logger.error(`Relay sent a malformed frame: ${String(error)}`);
        socket.terminate();
      }
    });
    socket.on('error', (error) => this.logger.warn(`Relay connection error: ${error.message}`));
    socket.on('close', () => this.reconnect(socket));
  }

  private onFrame(frame: StompFrame): void {
    if (frame.command === 'MESSAGE') return this.events.onMessage(frame);
    if (frame.command === 'CONNECTED') {
      this.connected = true;
      this.retryMs = FIRST_RETRY_MS;
      this.logger.log(`Relaying broker destinations through ${this.endpoint}`);
      return this.events.onConnected();
    }
    if (frame.command === 'ERROR') {
      this.logger.error(`Relay refused: ${frame.headers.message ?? ''} ${frame.body.toString()}`);
      this.socket?.terminate();
    }
  }

  private reconnect(socket: WebSocket): void {
    if (socket !== this.socket) return;
    if (this.connected) this.logger.error(`Relay connection to ${this.endpoint} lost; reconnecting`);
    this.connected = false;
    if (this.stopped) return;
    setTimeout(() => this.open(), this.retryMs).unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private beat(): void {
    if (!this.connected || !this.socket) return;
    if (Date.now() - this.lastRead > HEARTBEAT_MS * 3) return void this.socket.terminate();
    this.socket.send('\n');
  }
}
