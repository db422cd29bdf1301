import { isUtf8 } from 'node:buffer';
import { StompVersion } from '../stomp/frame';
import { assemble, encodeHeaderLines, HeaderList } from '../stomp/frame-encoder';
import { escapeHeader } from '../stomp/header-escaping';
import { EncodedFrame } from './encoded-frame';

const MAX_INTERNED_PREFIXES = 10_000;
const prefixes = new Map<string, Buffer>();

/**
 * The per-subscription start of a MESSAGE frame (`MESSAGE\nsubscription:<id>\n`). Interned, so that
 * subscribers sharing an id (stompjs numbers them `sub-0`, `sub-1`, … in every client) share one encoded
 * frame per message.
 */
export function subscriptionPrefix(id: string, version: StompVersion): Buffer {
  const key = `${version}\n${id}`;
  const known = prefixes.get(key);
  if (known) return known;
  const encodedId = version === '1.0' ? id : escapeHeader(id, version);
  const prefix = Buffer.from(`MESSAGE\nsubscription:${encodedId}\n`);
  if (prefixes.size < MAX_INTERNED_PREFIXES) prefixes.set(key, prefix);
  return prefix;
}

/**
 * One published message. The headers and body are encoded once per protocol version and the frame once
 * per distinct subscription prefix, however many subscribers receive it.
 */
export class OutgoingMessage {
  private readonly tails: Partial<Record<StompVersion, Buffer>> = {};
  private readonly frames = new Map<Buffer, EncodedFrame>();
  private readonly binary: boolean;

  constructor(
    readonly destination: string,
    readonly messageId: string,
    private readonly body: Buffer,
    private readonly headers: HeaderList,
  ) {
    this.binary = !isUtf8(body);
  }

  frameFor(prefix: Buffer, version: StompVersion): EncodedFrame {
    let frame = this.frames.get(prefix);
    if (!frame) {
      frame = new EncodedFrame(Buffer.concat([prefix, this.tail(version)]), this.binary);
      this.frames.set(prefix, frame);
    }
    return frame;
  }

  /** For client-acknowledged 1.2 subscriptions, whose frames carry an `ack` header of their own. */
  frameWithAck(prefix: Buffer, version: StompVersion): EncodedFrame {
    const ack = Buffer.from(`ack:${escapeHeader(this.messageId, version)}\n`);
    return new EncodedFrame(Buffer.concat([prefix, ack, this.tail(version)]), this.binary);
  }

  private tail(version: StompVersion): Buffer {
    let tail = this.tails[version];
    if (!tail) {
      const all: HeaderList = [['destination', this.destination], ['message-id', this.messageId], ...this.headers];
      const head = `${encodeHeaderLines('MESSAGE', all, version)}content-length:${this.body.length}\n\n`;
      tail = this.tails[version] = assemble(head, this.body);
    }
    return tail;
  }
}
