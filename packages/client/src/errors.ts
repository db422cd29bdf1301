import { ServerErrorCode, serverErrorCodes } from './generated/beans';

/** What the client found itself, with `status` 0: no connection, no reply in time, an answer it cannot read, no login. */
export const localErrorCodes = ['NETWORK_ERROR', 'NO_REPLY', 'BAD_RESPONSE', 'NOT_LOGGED_IN'] as const;

export type LocalErrorCode = (typeof localErrorCodes)[number];

/**
 * Stable codes to branch on (the message is for people and may change): the server's (root README, "Error codes")
 * and the client's own.
 * @example if (e instanceof CcbError && e.code === 'OUT_OF_STOCK') showStockHint();
 */
export type ErrorCode = ServerErrorCode | LocalErrorCode;

/** One problem with one input field, e.g. `{ field: 'args[0].quantity', message: 'must be a positive integer' }`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The server's single error shape (REST answers and STOMP error replies alike). */
export interface ErrorBody {
  code: ErrorCode;
  status: number;
  error: string;
  message: string;
  requestId: string;
  path?: string;
  timestamp?: string;
  details?: FieldProblem[];
}

/**
 * Every failure of a client call. Server errors carry the server's body; failures found by the client itself
 * (no answer in time, no connection, an answer that is not JSON) have `status` 0, a {@link LocalErrorCode} and
 * `requestId` ''.
 */
export class CcbError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly error: string;
  readonly requestId: string;
  readonly details?: FieldProblem[];
  readonly body: ErrorBody;

  constructor(body: ErrorBody) {
    super(body.message);
    this.name = 'CcbError';
    this.code = body.code;
    this.status = body.status;
    this.error = body.error;
    this.requestId = body.requestId;
    this.details = body.details;
    this.body = body;
  }

  /** A failure the client detected itself (status 0). */
  static local(code: LocalErrorCode, error: string, message: string): CcbError {
    return new CcbError({ code, status: 0, error, message, requestId: '' });
  }
}

/** Whether a parsed JSON value has the error shape. */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const { code, status, error, message } = value as Record<string, unknown>;
  return isErrorCode(code) && typeof status === 'number' && typeof error === 'string' && typeof message === 'string';
}

function isErrorCode(value: unknown): value is ErrorCode {
  return (
    (serverErrorCodes as readonly unknown[]).includes(value) || (localErrorCodes as readonly unknown[]).includes(value)
  );
}
