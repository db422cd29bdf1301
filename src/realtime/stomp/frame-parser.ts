import { createHeaders, escapesHeaders, StompFrame, StompHeaders, StompVersion } from './frame';
import { unescapeHeader } from './header-escaping';

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const COMMAND = /^[A-Z]{1,16}$/;
const DECIMAL = /^\d{1,10}$/;

export class StompParseError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

export interface ParserLimits {
  maxFrameBytes: number;
  maxHeaders: number;
}

interface FrameHead {
  command: string;
  headers: StompHeaders;
  bodyStart: number;
}

/**
 * Incremental STOMP frame decoder: bytes go in as they arrive (frames may be split across chunks or
 * several may share one), complete frames come out in order. Heart-beat EOLs between frames are skipped.
 * Header unescaping follows {@link version}, which the session sets synchronously on CONNECT, before
 * the frames that follow it in the same chunk are decoded.
 */
export class StompFrameParser {
  version: StompVersion = '1.2';
  private pending: Buffer | null = null;

  constructor(private readonly limits: ParserLimits) {}

  /** Decodes what `chunk` completes; throws {@link StompParseError} on a malformed or oversized frame. */
  push(chunk: Buffer, onFrame: (frame: StompFrame) => void): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = skipEols(data, 0);
    while (pos < data.length) {
      const end = this.decodeFrame(data, pos, onFrame);
      if (end < 0) break;
      pos = skipEols(data, end);
    }
    this.pending = pos < data.length ? data.subarray(pos) : null;
    if (this.pending && this.pending.length > this.limits.maxFrameBytes) throw tooLarge();
  }

  /** Returns the offset after the frame's NUL, or -1 when the frame is not complete yet. */
  private decodeFrame(data: Buffer, start: number, onFrame: (frame: StompFrame) => void): number {
    const head = this.decodeHead(data, start);
    if (!head) return -1;
    const bodyEnd = this.findBodyEnd(data, start, head);
    if (bodyEnd < 0) return -1;
    if (bodyEnd + 1 - start > this.limits.maxFrameBytes) throw tooLarge();
    onFrame({ command: head.command, headers: head.headers, body: data.subarray(head.bodyStart, bodyEnd) });
    return bodyEnd + 1;
  }

  private decodeHead(data: Buffer, start: number): FrameHead | null {
    let lineEnd = data.indexOf(LF, start);
    if (lineEnd < 0) return null;
    const command = data.toString('latin1', start, trimCr(data, start, lineEnd));
    if (!COMMAND.test(command)) throw new StompParseError('Malformed frame: invalid command line');
    const headers = createHeaders();
    const unescape = escapesHeaders(command, this.version);
    let count = 0;
    for (let pos = lineEnd + 1; ; pos = lineEnd + 1) {
      lineEnd = data.indexOf(LF, pos);
      if (lineEnd < 0) return null;
      const end = trimCr(data, pos, lineEnd);
      if (end === pos) return { command, headers, bodyStart: lineEnd + 1 };
      if (++count > this.limits.maxHeaders) throw new StompParseError('Too many headers');
      this.decodeHeader(data, pos, end, unescape, headers);
    }
  }

  private decodeHeader(data: Buffer, start: number, end: number, unescape: boolean, headers: StompHeaders): void {
    const colon = data.indexOf(':', start);
    if (colon < 0 || colon >= end) throw new StompParseError('Malformed header: missing colon');
    let name: string | null = data.toString('utf8', start, colon);
    let value: string | null = data.toString('utf8', colon + 1, end);
    if (unescape) {
      name = unescapeHeader(name, this.version);
      value = unescapeHeader(value, this.version);
      if (name === null || value === null) throw new StompParseError('Undefined escape sequence in header');
    }
    if (!(name in headers)) headers[name] = value;
  }

  private findBodyEnd(data: Buffer, start: number, head: FrameHead): number {
    const declared = head.headers['content-length'];
    if (declared === undefined) {
      const nul = data.indexOf(NUL, head.bodyStart);
      if (nul < 0 && data.length - start > this.limits.maxFrameBytes) throw tooLarge();
      return nul;
    }
    if (!DECIMAL.test(declared)) throw new StompParseError('Malformed content-length header');
    const bodyEnd = head.bodyStart + Number(declared);
    if (bodyEnd + 1 - start > this.limits.maxFrameBytes) throw tooLarge();
    if (bodyEnd >= data.length) return -1;
    if (data[bodyEnd] !== NUL)
      throw new StompParseError('Frame body not terminated by NUL after content-length octets');
    return bodyEnd;
  }
}

function tooLarge(): StompParseError {
  return new StompParseError('Frame too large', true);
}

function trimCr(data: Buffer, start: number, lineEnd: number): number {
  return lineEnd > start && data[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
}

function skipEols(data: Buffer, pos: number): number {
  while (pos < data.length) {
    if (data[pos] === LF) pos++;
    else if (data[pos] === CR && data[pos + 1] === LF) pos += 2;
    else break;
  }
  return pos;
}
