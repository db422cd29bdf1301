/** A `byte[]` result. */
export function isBytes(result: unknown): result is Uint8Array {
  return result instanceof Uint8Array;
}

/** A bean result as JSON carries it on both transports: bytes as base64, nothing as `null`. */
export function toJsonResult(result: unknown): unknown {
  if (isBytes(result)) return bytesOf(result).toString('base64');
  return result ?? null;
}

/** The bytes as a Buffer over the same memory (no copy). */
export function bytesOf(result: Uint8Array): Buffer {
  return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
}
