import { fromBson } from '../bson/codec';
import type { Doc } from '../types';
import { HEADER_SIZE } from './framer';
import { replyBson } from './reply-bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const FLAG_CHECKSUM = 1 << 0;
export const FLAG_MORE_TO_COME = 1 << 1;

export class ProtocolError extends Error {}

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface CommandMessage {
  header: Header;
  /** The command body with document sequences folded in as arrays. */
  command: Doc;
  /** OP_MSG with moreToCome: the client expects no reply (w: 0). */
  noReply: boolean;
  /** OP_QUERY commands (legacy handshake) are answered with OP_REPLY. */
  legacy: boolean;
}

export function parseHeader(message: Buffer): Header {
  return {
    length: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
}

/** Parses a framed message; anything wrong with it (bounds, BSON, sections) is a ProtocolError. */
export function parseMessage(message: Buffer): CommandMessage {
  const header = parseHeader(message);
  if (header.opCode !== OP_MSG && header.opCode !== OP_QUERY) {
    throw new ProtocolError(`unsupported opCode ${header.opCode}`);
  }
  try {
    return header.opCode === OP_MSG ? parseOpMsg(header, message) : parseOpQuery(header, message);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    // A read past the end (RangeError) or invalid BSON (BSONError).
    throw new ProtocolError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * How to answer a framed message that failed to parse: OP_MSG and OP_QUERY can carry an error reply
 * (OP_MSG with moreToCome expects none); another opcode has no reply form.
 */
export function unparsedRequest(message: Buffer): CommandMessage | undefined {
  const header = parseHeader(message);
  if (header.opCode !== OP_MSG && header.opCode !== OP_QUERY) return undefined;
  const moreToCome =
    header.opCode === OP_MSG &&
    message.length >= HEADER_SIZE + 4 &&
    (message.readUInt32LE(HEADER_SIZE) & FLAG_MORE_TO_COME) !== 0;
  return { header, command: {}, noReply: moreToCome, legacy: header.opCode === OP_QUERY };
}

function readDocument(message: Buffer, offset: number, end: number): { doc: Doc; next: number } {
  if (offset + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = message.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError('invalid BSON document length');
  return { doc: fromBson(message.subarray(offset, offset + size)), next: offset + size };
}

function readCString(message: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = message.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated cstring');
  return { value: message.toString('utf8', offset, zero), next: zero + 1 };
}

function parseOpMsg(header: Header, message: Buffer): CommandMessage {
  const flags = message.readUInt32LE(HEADER_SIZE);
  const end = message.length - (flags & FLAG_CHECKSUM ? 4 : 0);
  let offset = HEADER_SIZE + 4;
  let body: Doc | undefined;
  // A Map, so an identifier such as `__proto__` stays data.
  const sequences = new Map<string, Doc[]>();
  while (offset < end) {
    const kind = message[offset++];
    if (kind === 0) {
      const { doc, next } = readDocument(message, offset, end);
      body = doc;
      offset = next;
    } else if (kind === 1) {
      offset = readSequence(message, offset, end, sequences);
    } else {
      throw new ProtocolError(`invalid OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body section');
  return {
    header,
    command: { ...body, ...Object.fromEntries(sequences) },
    noReply: (flags & FLAG_MORE_TO_COME) !== 0,
    legacy: false,
  };
}

function readSequence(message: Buffer, start: number, end: number, into: Map<string, Doc[]>): number {
  if (start + 4 > end) throw new ProtocolError('truncated document sequence');
  const sectionEnd = start + message.readInt32LE(start);
  if (sectionEnd > end || sectionEnd < start + 5) throw new ProtocolError('invalid document sequence length');
  const { value: identifier, next } = readCString(message, start + 4, sectionEnd);
  const docs: Doc[] = [];
  for (let offset = next; offset < sectionEnd;) {
    const read = readDocument(message, offset, sectionEnd);
    docs.push(read.doc);
    offset = read.next;
  }
  into.set(identifier, docs);
  return sectionEnd;
}

function parseOpQuery(header: Header, message: Buffer): CommandMessage {
  const { value: fullCollectionName, next } = readCString(message, HEADER_SIZE + 4, message.length);
  const { doc } = readDocument(message, next + 8, message.length);
  const db = fullCollectionName.split('.')[0];
  // Legacy clients may wrap the command as {$query: {...}, $readPreference: ...}.
  const command = (doc.$query as Doc | undefined) ?? doc;
  return { header, command: { ...command, $db: db }, noReply: false, legacy: true };
}

let nextRequestId = 1;

/** The bytes between an OP_REPLY's header and its document: responseFlags, cursorID (int64), startingFrom, numberReturned. */
const LEGACY_PREFIX = 20;
/** The bytes between an OP_MSG's header and its document: flagBits, then the body section's kind (0). */
const MSG_PREFIX = 5;

/**
 * The reply message: its BSON (reply-bson.ts) written behind room left for the header and prefix, which are filled
 * in place (a cursor's batch is written there directly; a listing page's reply of 25 KB was copied once more, into a
 * buffer of its own, to add them).
 */
export function encodeReply(request: CommandMessage, reply: Doc): Buffer {
  const prefix = request.legacy ? LEGACY_PREFIX : MSG_PREFIX;
  const message = replyBson(reply, HEADER_SIZE + prefix);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  message.writeInt32LE(request.header.requestId, 8);
  message.writeInt32LE(request.legacy ? OP_REPLY : OP_MSG, 12);
  message.fill(0, HEADER_SIZE, HEADER_SIZE + prefix);
  if (request.legacy) message.writeInt32LE(1, HEADER_SIZE + 16); // numberReturned
  return message;
}
