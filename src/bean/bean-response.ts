import type { Response } from 'express';

/** Media types in `Accept` that ask for `byte[]` results as raw bytes instead of a base64 string. */
const RAW_BYTE_MEDIA_TYPES = ['application/pdf', 'application/octet-stream'];

/**
 * Writes a bean result as the unified call answers it: the JSON of the value itself, `null` for nothing,
 * bytes as base64 JSON or raw by `Accept`.
 */
export function sendBeanResult(response: Response, result: unknown, accept: string | undefined): void {
  if (result instanceof Uint8Array) {
    sendBytes(response, Buffer.from(result.buffer, result.byteOffset, result.byteLength), accept);
    return;
  }
  response.status(200).json(result ?? null);
}

function sendBytes(response: Response, bytes: Buffer, accept: string | undefined): void {
  const mediaType = RAW_BYTE_MEDIA_TYPES.find((type) => accept?.includes(type));
  if (mediaType) response.status(200).type(mediaType).send(bytes);
  else response.status(200).json(bytes.toString('base64'));
}
