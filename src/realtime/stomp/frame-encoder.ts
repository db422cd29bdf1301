import { escapesHeaders, StompVersion } from './frame';
import { escapeHeader } from './header-escaping';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

const EMPTY = Buffer.alloc(0);

/**
 * Header lines (`name:value\n` each) as they go on the wire. Where escaping does not apply, CR and LF
 * cannot be represented and become spaces.
 */
export function encodeHeaderLines(command: string, headers: HeaderList, version: StompVersion): string {
  const escape = escapesHeaders(command, version);
  let lines = '';
  for (const [name, value] of headers) {
    lines += escape
      ? `${escapeHeader(name, version)}:${escapeHeader(value, version)}\n`
      : `${flatten(name)}:${flatten(value)}\n`;
  }
  return lines;
}

/** Encodes a complete frame; a non-empty body gets a `content-length` header. */
export function encodeFrame(
  command: string,
  headers: HeaderList,
  version: StompVersion,
  body: Buffer | string = EMPTY,
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const length = bytes.length > 0 ? `content-length:${bytes.length}\n` : '';
  return assemble(`${command}\n${encodeHeaderLines(command, headers, version)}${length}\n`, bytes);
}

/** `head` (already ending in the blank line), then `body`, then NUL, in one buffer. */
export function assemble(head: string, body: Buffer): Buffer {
  const headLength = Buffer.byteLength(head);
  const frame = Buffer.allocUnsafe(headLength + body.length + 1);
  frame.write(head, 0);
  body.copy(frame, headLength);
  frame[frame.length - 1] = 0;
  return frame;
}

function flatten(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}
