/** A frame serialized once, sent as-is to every session that gets it. */
export class EncodedFrame {
  private decoded?: string;

  constructor(
    readonly bytes: Buffer,
    /** Body is not UTF-8: must travel as a binary WebSocket message. */
    readonly binary = false,
  ) {}

  /** The frame as text, for transports that only carry strings (SockJS). */
  get text(): string {
    this.decoded ??= this.bytes.toString('utf8');
    return this.decoded;
  }
}
