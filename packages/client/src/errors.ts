/** One problem with one input field, e.g. `{ field: 'args[0].quantity', message: 'must be a positive integer' }`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The server's single error shape (REST answers and STOMP error replies alike). */
export interface ErrorBody {
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
 * (no answer in time, no connection, an answer that is not JSON) have `status` 0 and `requestId` ''.
 */
export class CcbError extends Error {
  readonly status: number;
  readonly error: string;
  readonly requestId: string;
  readonly details?: FieldProblem[];
  readonly body: ErrorBody;

  constructor(body: ErrorBody) {
    super(body.message);
    this.name = 'CcbError';
    this.status = body.status;
    this.error = body.error;
    this.requestId = body.requestId;
    this.details = body.details;
    this.body = body;
  }

  /** A failure the client detected itself (status 0). */
  static local(error: string, message: string): CcbError {
    return new CcbError({ status: 0, error, message, requestId: '' });
  }
}

/** Whether a parsed JSON value has the error shape. */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const { status, error, message } = value as Record<string, unknown>;
  return typeof status === 'number' && typeof error === 'string' && typeof message === 'string';
}
