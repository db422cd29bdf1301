export const HEADER_SIZE = 16;
/** Matches `maxMessageSizeBytes` in the hello reply; anything larger is refused before buffering. */
export const MAX_MESSAGE_SIZE = 48_000_000;

export class FramingError extends Error {}

/**
 * Splits a TCP byte stream into whole wire messages (length-prefixed). Validates the length prefix
 * before buffering so a hostile prefix (e.g. 2 GiB) fails fast instead of allocating.
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /**
   * The whole messages completed by `chunk`. An invalid length prefix ends the stream: the messages before it
   * come with the error (they are still answered), and nothing after it can be framed.
   */
  push(chunk: Buffer): { messages: Buffer[]; error?: FramingError } {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: Buffer[] = [];
    try {
      for (let size = this.nextSize(); size !== undefined && this.buffered >= size; size = this.nextSize()) {
        messages.push(this.take(size));
      }
    } catch (error) {
      if (!(error instanceof FramingError)) throw error;
      return { messages, error };
    }
    return { messages };
  }

  private nextSize(): number | undefined {
    if (this.buffered < 4) return undefined;
    const head = this.chunks[0].length >= 4 ? this.chunks[0] : this.concat();
    const size = head.readInt32LE(0);
    if (size < HEADER_SIZE || size > MAX_MESSAGE_SIZE) throw new FramingError(`invalid message length ${size}`);
    return size;
  }

  private take(size: number): Buffer {
    const all = this.concat();
    const message = all.subarray(0, size);
    const rest = all.subarray(size);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return message;
  }

  private concat(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }
}
