import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toErrorBody } from './error-body';
import { retryAfterSeconds } from './too-many-requests';

/** The one exception filter of the app: every HTTP error leaves as the DESIGN §3 body. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { id?: string }>();
    const response = http.getResponse<Response>();
    const body = toErrorBody(exception, request.originalUrl.split('?')[0], request.id ?? '');
    if (body.status >= HttpStatus.INTERNAL_SERVER_ERROR) {
      this.logger.error({ err: exception, requestId: body.requestId }, 'Unhandled error');
    }
    if (response.headersSent) return;
    const retryAfter = retryAfterSeconds(exception);
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    // Set, not left to json(): a route that declares another type (the sandbox's HTML pages) must not have its
    // error body, which echoes the path, rendered as that type.
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.status(body.status).json(body);
  }
}
