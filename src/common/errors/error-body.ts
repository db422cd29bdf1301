import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { defaultCode, ERROR_CODES, ErrorCode, isErrorCode } from './error-codes';
import { isOutOfDiskSpace } from '../mongo/out-of-disk-space';

/** One problem with one input field; `field` is a dotted path such as `args[0].quantity`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The single error shape of every REST endpoint and every STOMP error reply (DESIGN §3). */
export interface ErrorBody {
  /** Stable, for clients to branch on: a domain code, else the default of the status (`ERROR_CODES`). */
  code: ErrorCode;
  error: string;
  message: string;
  status: number;
  path: string;
  timestamp: string;
  requestId: string;
  details?: FieldProblem[];
}

interface Described {
  status: number;
  message: string;
  code?: ErrorCode;
  details?: FieldProblem[];
}

/** Turns anything thrown into the error body; internals of unexpected errors never leave the server. */
export function toErrorBody(exception: unknown, path: string, requestId: string): ErrorBody {
  const { status, message, details, code } = describe(exception);
  const body: ErrorBody = {
    code: code ?? (details?.length && status === 400 ? 'VALIDATION_FAILED' : defaultCode(status)),
    error: reasonPhrase(status),
    message,
    status,
    path,
    timestamp: new Date().toISOString(),
    requestId,
  };
  if (details?.length) body.details = details;
  return body;
}

function reasonPhrase(status: number): string {
  if (status === HttpStatus.FORBIDDEN) return 'Access denied';
  return STATUS_CODES[status] ?? 'Error';
}

function describe(exception: unknown): Described {
  if (exception instanceof HttpException) return describeHttpException(exception);
  const clientError = asExposedClientError(exception);
  if (clientError) return clientError;
  // Not the client's fault, but worth telling: the change was refused, reads go on, a retry later may succeed.
  if (isOutOfDiskSpace(exception)) {
    return {
      status: HttpStatus.INSUFFICIENT_STORAGE,
      message: 'The database is out of disk space: nothing was changed',
    };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'Internal server error' };
}

function describeHttpException(exception: HttpException): Described {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') return { status, message: response };
  const { message, details, code } = response as { message?: unknown; details?: unknown; code?: unknown };
  if (Array.isArray(message)) {
    return { status, message: 'Validation failed', details: message.map((m) => ({ field: '', message: String(m) })) };
  }
  return {
    status,
    message: typeof message === 'string' ? message : exception.message,
    details: Array.isArray(details) ? (details as FieldProblem[]) : undefined,
    // A code is trusted only with the status it is listed for, so a body never contradicts the table.
    code: isErrorCode(code) && ERROR_CODES[code].status === status ? code : undefined,
  };
}

/** Errors raised by Express middleware (body-parser) carry `status` and `expose` (http-errors). */
function asExposedClientError(exception: unknown): Described | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { status, expose, type, limit } = exception as {
    status?: unknown;
    expose?: unknown;
    type?: unknown;
    limit?: unknown;
  };
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) return undefined;
  if (type === 'entity.too.large')
    return { status, message: `Request body exceeds the limit of ${String(limit)} bytes` };
  return { status, message: STATUS_CODES[status] ?? 'Bad request' };
}
