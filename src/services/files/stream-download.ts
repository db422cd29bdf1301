import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { RequestContext } from '../../common/request-context';

/** Headers of the download that must not describe the error answer given instead. */
const DOWNLOAD_HEADERS = [
  'Content-Type',
  'Content-Length',
  'Content-Disposition',
  'Content-Range',
  'ETag',
  'Last-Modified',
  'Cache-Control',
  'Accept-Ranges',
];

const logger = new Logger('FileDownload');

/**
 * Streams `source` (a GridFS download) into the response. A read error never truncates the download silently:
 * before the first byte it is thrown (the error filter answers a logged 500); once bytes went out the
 * connection is cut, so the client sees an incomplete response, and the error is logged with the request id.
 * A client that goes away ends the read.
 */
export async function streamDownload(source: Readable, res: Response, what: string): Promise<void> {
  const requestId = RequestContext.find()?.requestId;
  try {
    await new Promise<void>((resolve, reject) => {
      source.once('error', reject);
      res.once('close', resolve);
      source.pipe(res);
    });
  } catch (error) {
    source.unpipe(res);
    const failure = new Error(`Reading ${what} failed`, { cause: error });
    if (!res.headersSent) {
      for (const header of DOWNLOAD_HEADERS) res.removeHeader(header);
      throw failure;
    }
    logger.error({ err: failure, requestId }, `${failure.message} after the response started: connection cut`);
    res.destroy(failure);
  } finally {
    source.destroy();
  }
}
