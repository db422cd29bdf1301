import type { Response } from 'express';
import { bytesOf, isBytes, toJsonResult } from './bean-result';
import { jsonTextOf } from './json-text';

/** Media types in `Accept` that ask for `byte[]` results as raw bytes instead of a base64 string. */
const RAW_BYTE_MEDIA_TYPES = ['application/pdf', 'application/octet-stream'];

/** Writes a bean result as the unified call answers it over HTTP: its JSON (`toJsonResult`), or raw bytes by `Accept`. */
export function sendBeanResult(response: Response, result: unknown, accept: string | undefined): void {
  const rawMediaType = RAW_BYTE_MEDIA_TYPES.find((type) => accept?.includes(type));
  if (isBytes(result) && rawMediaType) response.status(200).type(rawMediaType).send(bytesOf(result));
  else sendJson(response, toJsonResult(result));
}

/**
 * The JSON `response.json` would send, written in one piece: headers and body leave in one write. Express's json
 * would turn the body into a Buffer to hash an ETag, which a POST answer never uses, and send two. A `JsonText` is
 * written as it is.
 */
function sendJson(response: Response, value: unknown): void {
  const body = jsonTextOf(value);
  response.statusCode = 200;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(body));
  response.end(body);
}
