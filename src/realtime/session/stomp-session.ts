import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ErrorBody } from '../../common/errors/error-body';
import type { ErrorCode } from '../../common/errors/error-codes';
import { Principal } from '../../common/principal';
import { EncodedFrame } from '../broker/encoded-frame';
import { BrokerSubscriber, Subscription } from '../broker/message-broker';
import { OutgoingMessage } from '../broker/outgoing-message';
import { StompFrame, StompVersion } from '../stomp/frame';
import { encodeFrame, HeaderList } from '../stomp/frame-encoder';
import { ParserLimits, StompFrameParser, StompParseError } from '../stomp/frame-parser';
import { HeartbeatMonitor, HeartbeatTarget } from './heartbeat-monitor';
import { CloseReason, StompTransport } from './stomp-transport';

const HEARTBEAT = new EncodedFrame(Buffer.from('\n'));
/** A peer may be this many intervals late before it counts as gone (stompjs uses the same factor). */
const HEARTBEAT_GRACE = 2;
/** A connection that sends no CONNECT within this time is closed. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Reacts to a session's frames; CONNECT and authorized SUBSCRIBE may be asynchronous. */
export interface FrameHandler {
  onFrame(session: StompSession, frame: StompFrame): void | Promise<void>;
  onClose(session: StompSession): void;
  /** Time to check again that the session's token is still valid (not revoked). */
  onReverify(session: StompSession, token: string): void;
}

export interface SessionOptions {
  limits: ParserLimits;
  maxBufferedBytes: number;
  reverifyEveryMs: number;
}

/**
 * One STOMP connection: decodes what arrives, hands frames to the handler strictly in order (a frame waits
 * while an earlier one is still being processed asynchronously), writes frames and keeps heart-beats.
 */
export class StompSession implements BrokerSubscriber, HeartbeatTarget {
  private static readonly logger = new Logger(StompSession.name);
  readonly id = randomUUID();
  readonly subscriptions = new Map<string, Subscription>();
  connected = false;
  principal: Principal | null = null;
  userName = `guest:${this.id}`;
  lang = 'en';
  site = 'default';
  private readonly parser: StompFrameParser;
  private closed = false;
  private pending?: Promise<void>;
  private sendEvery = 0;
  private expectEvery = 0;
  private lastRead: number;
  private lastWrite: number;
  private readonly openedAt: number;
  private verifiedToken?: string;
  private reverifyAt = 0;

  constructor(
    private readonly transport: StompTransport,
    private readonly handler: FrameHandler,
    private readonly monitor: HeartbeatMonitor,
    private readonly options: SessionOptions,
  ) {
    this.parser = new StompFrameParser(options.limits);
    this.openedAt = this.lastRead = this.lastWrite = monitor.now;
    monitor.add(this);
  }

  get version(): StompVersion {
    return this.parser.version;
  }

  set version(version: StompVersion) {
    this.parser.version = version;
  }

  get remoteAddress(): string {
    return this.transport.remoteAddress;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  receive(chunk: Buffer): void {
    if (this.closed) return;
    this.lastRead = this.monitor.now;
    try {
      this.parser.push(chunk, (frame) => this.enqueue(frame));
    } catch (error) {
      if (!(error instanceof StompParseError)) throw error;
      this.fail('PROTOCOL_ERROR', error.message);
    }
  }

  /** Starts heart-beating in both directions (0 = off). */
  startHeartbeats(sendEvery: number, expectEvery: number): void {
    this.sendEvery = sendEvery;
    this.expectEvery = expectEvery;
  }

  /** The token the principal came from, if any. */
  get token(): string | undefined {
    return this.verifiedToken;
  }

  /** The token the principal came from, verified again every `reverifyEveryMs` (spread over the interval). */
  authenticate(principal: Principal, token: string): void {
    this.principal = principal;
    this.userName = principal.id;
    this.verifiedToken = token;
    this.reverifyAt = this.monitor.now + this.options.reverifyEveryMs * (0.5 + Math.random() / 2);
  }

  /** Also ends sessions that never CONNECT and those whose token expires: a session lasts no longer than its token. */
  onHeartbeatTick(now: number): void {
    if (!this.connected && now - this.openedAt > CONNECT_TIMEOUT_MS) {
      this.fail('TIMEOUT', 'No CONNECT frame in time');
    } else if (this.principal?.exp !== undefined && now >= this.principal.exp * 1000) {
      this.fail('TOKEN_INVALID', 'Token expired');
    } else if (this.verifiedToken !== undefined && now >= this.reverifyAt) {
      this.reverifyAt = now + this.options.reverifyEveryMs;
      this.handler.onReverify(this, this.verifiedToken);
    } else if (this.expectEvery && now - this.lastRead > this.expectEvery * HEARTBEAT_GRACE) {
      this.fail('TIMEOUT', 'Heart-beat timeout');
    } else if (this.sendEvery && now - this.lastWrite >= this.sendEvery) {
      this.send(HEARTBEAT);
    }
  }

  deliver(subscription: Subscription, message: OutgoingMessage): void {
    if (this.closed) return;
    if (this.transport.bufferedAmount > this.options.maxBufferedBytes) {
      this.fail('SLOW_CONSUMER', 'Slow consumer: too many undelivered messages');
      return;
    }
    const clientAck = subscription.ackMode !== 'auto' && this.version === '1.2';
    this.send(
      clientAck
        ? message.frameWithAck(subscription.prefix, this.version)
        : message.frameFor(subscription.prefix, this.version),
    );
  }

  sendFrame(command: string, headers: HeaderList, body?: string): void {
    this.send(new EncodedFrame(encodeFrame(command, headers, this.version, body)));
  }

  /** Sends RECEIPT when `frame` asked for one. */
  acknowledge(frame: StompFrame): void {
    const receipt = frame.headers.receipt;
    if (receipt !== undefined) this.sendFrame('RECEIPT', [['receipt-id', receipt]]);
  }

  /** Sends ERROR (STOMP requires closing after it) with the error's `code` header, and closes. */
  fail(code: ErrorCode, message: string, detail = '', frame?: StompFrame, extra: HeaderList = []): void {
    this.sendError([['message', message], ['code', code], ['content-type', 'text/plain'], ...extra], detail, frame);
  }

  /** Sends ERROR with the DESIGN §3 error body as JSON, as REST would answer, and closes. */
  failWithBody(body: ErrorBody, frame?: StompFrame): void {
    this.sendError(
      [
        ['message', body.message],
        ['code', body.code],
        ['content-type', 'application/json'],
      ],
      JSON.stringify(body),
      frame,
    );
  }

  private sendError(headers: HeaderList, body: string, frame?: StompFrame): void {
    if (this.closed) return;
    const receipt = frame?.headers.receipt;
    this.sendFrame('ERROR', receipt === undefined ? headers : [...headers, ['receipt-id', receipt]], body);
    this.close();
  }

  close(reason: CloseReason = 'normal'): void {
    if (this.closed) return;
    this.closed = true;
    this.monitor.remove(this);
    this.transport.close(reason);
    this.handler.onClose(this);
  }

  private send(frame: EncodedFrame): void {
    if (this.closed) return;
    this.lastWrite = this.monitor.now;
    this.transport.send(frame);
  }

  private enqueue(frame: StompFrame): void {
    if (this.pending) {
      this.pending = this.settle(this.pending.then(() => this.dispatch(frame)));
      return;
    }
    const work = this.dispatch(frame);
    if (work) this.pending = this.settle(work);
  }

  private dispatch(frame: StompFrame): void | Promise<void> {
    if (this.closed) return;
    try {
      return this.handler.onFrame(this, frame);
    } catch (error) {
      this.crashed(error);
    }
  }

  private crashed(error: unknown): void {
    StompSession.logger.error(`Session ${this.id} failed`, error instanceof Error ? error.stack : error);
    this.fail('INTERNAL_ERROR', 'Internal error');
  }

  private settle(work: Promise<void>): Promise<void> {
    const settled: Promise<void> = work
      .catch((error: unknown) => this.crashed(error))
      .then(() => {
        if (this.pending === settled) this.pending = undefined;
      });
    return settled;
  }
}
