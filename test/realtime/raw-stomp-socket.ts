import WebSocket from 'ws';
import { StompFrame, StompVersion } from '../../src/realtime/stomp/frame';
import { StompFrameParser } from '../../src/realtime/stomp/frame-parser';

/** A bare WebSocket speaking STOMP by hand, to send what well-behaved clients never send. */
export class RawStompSocket {
  readonly frames: StompFrame[] = [];
  heartbeats = 0;
  readonly closed: Promise<number>;
  private readonly parser = new StompFrameParser({ maxFrameBytes: 1 << 20, maxHeaders: 64 });

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', resolve));
    ws.on('message', (data: Buffer) => {
      if (data.toString() === '\n') this.heartbeats++;
      else this.parser.push(data, (frame) => this.frames.push(frame));
    });
  }

  static open(baseUrl: string): Promise<RawStompSocket> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, ['v12.stomp']);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawStompSocket(ws)));
      ws.once('error', reject);
    });
  }

  set version(version: StompVersion) {
    this.parser.version = version;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** CONNECT and wait for CONNECTED (or ERROR). */
  async connect(headers = 'accept-version:1.2\n'): Promise<StompFrame> {
    this.send(`CONNECT\n${headers}\n\0`);
    return this.next();
  }

  async next(command?: string, timeoutMs = 5000): Promise<StompFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((f) => command === undefined || f.command === command);
      if (index >= 0) return this.frames.splice(index, 1)[0];
      if (Date.now() > deadline) throw new Error(`No ${command ?? 'frame'} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Resolves once `count` heart-beats have arrived since the socket opened. @throws Error after `timeoutMs` */
  async heartbeatsReach(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.heartbeats < count) {
      if (Date.now() > deadline) throw new Error(`${this.heartbeats} of ${count} heart-beats within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops reading from the network, so that the server's send queue fills up. */
  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.ws.terminate();
  }
}
