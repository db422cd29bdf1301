import { HttpStatus } from '@nestjs/common';

interface ErrorCodeEntry {
  status: HttpStatus;
  meaning: string;
}

/**
 * Every `code` an error body can carry, with its HTTP status and what it means. The codes are part of the API:
 * OpenAPI lists them (`ErrorBody.code`), the typed client has them as a union, the root README has this table.
 * A code is never renamed or reused for something else; new ones are added here.
 */
export const ERROR_CODES = {
  // The default of each status, for an error that has no code of its own.
  BAD_REQUEST: { status: HttpStatus.BAD_REQUEST, meaning: 'The request is malformed' },
  UNAUTHORIZED: { status: HttpStatus.UNAUTHORIZED, meaning: 'No valid credentials' },
  ACCESS_DENIED: { status: HttpStatus.FORBIDDEN, meaning: 'The caller may not do this' },
  NOT_FOUND: { status: HttpStatus.NOT_FOUND, meaning: 'No such route or entity' },
  CONFLICT: { status: HttpStatus.CONFLICT, meaning: 'The current state does not allow this' },
  PAYLOAD_TOO_LARGE: { status: HttpStatus.PAYLOAD_TOO_LARGE, meaning: 'The body or upload exceeds its limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, meaning: 'A content type that is not accepted' },
  RANGE_NOT_SATISFIABLE: {
    status: HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
    meaning: 'The `Range` lies outside the file (`Content-Range` gives its length)',
  },
  RATE_LIMITED: { status: HttpStatus.TOO_MANY_REQUESTS, meaning: 'Too many calls; wait `Retry-After` seconds' },
  INTERNAL_ERROR: {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    meaning: 'A fault of the server (logged under requestId)',
  },
  SERVICE_UNAVAILABLE: { status: HttpStatus.SERVICE_UNAVAILABLE, meaning: 'Temporarily unable; try again' },
  INSUFFICIENT_STORAGE: {
    status: HttpStatus.INSUFFICIENT_STORAGE,
    meaning: 'The database is out of disk space; nothing was changed',
  },
  // STOMP sessions: the `code` header of an ERROR frame that closes the connection.
  PROTOCOL_ERROR: { status: HttpStatus.BAD_REQUEST, meaning: 'STOMP: a malformed, unexpected or incomplete frame' },
  TIMEOUT: { status: HttpStatus.REQUEST_TIMEOUT, meaning: 'STOMP: no CONNECT frame or heart-beat in time' },
  SLOW_CONSUMER: { status: HttpStatus.SERVICE_UNAVAILABLE, meaning: 'STOMP: too many undelivered messages' },
  // The call itself.
  VALIDATION_FAILED: { status: HttpStatus.BAD_REQUEST, meaning: 'Fields are invalid; `details` lists each problem' },
  ARGUMENT_MISMATCH: { status: HttpStatus.BAD_REQUEST, meaning: 'An argument has the wrong type (`details`)' },
  NO_MATCHING_SIGNATURE: { status: HttpStatus.BAD_REQUEST, meaning: 'No overload takes these arguments' },
  UNKNOWN_FUNCTION: { status: HttpStatus.BAD_REQUEST, meaning: 'The bean exposes no function of that name' },
  UNKNOWN_BEAN: { status: HttpStatus.NOT_FOUND, meaning: 'No bean of that id' },
  CONTEXT_HEADER_INVALID: {
    status: HttpStatus.BAD_REQUEST,
    meaning: '`Lang-Context` or `Site-Context` is missing or invalid',
  },
  UNKNOWN_SITE: { status: HttpStatus.BAD_REQUEST, meaning: '`Site-Context` names no site' },
  // Authentication.
  INVALID_CREDENTIALS: { status: HttpStatus.UNAUTHORIZED, meaning: 'Unknown user or wrong password' },
  EMAIL_NOT_VERIFIED: { status: HttpStatus.UNAUTHORIZED, meaning: 'The account waits for its e-mail verification' },
  TOKEN_INVALID: { status: HttpStatus.UNAUTHORIZED, meaning: 'The token is malformed, expired or revoked' },
  ONE_TIME_TOKEN_INVALID: {
    status: HttpStatus.BAD_REQUEST,
    meaning: 'A verification or reset token is unknown, expired or used',
  },
  ACCOUNT_EXISTS: { status: HttpStatus.CONFLICT, meaning: 'The username or e-mail address is taken' },
  // Cart, catalogue and stock.
  CART_EMPTY: { status: HttpStatus.CONFLICT, meaning: 'Checkout of an empty cart' },
  OUT_OF_STOCK: { status: HttpStatus.CONFLICT, meaning: 'Not enough stock for the quantity asked' },
  NOT_FOR_SALE: { status: HttpStatus.CONFLICT, meaning: 'The offer is withdrawn from sale' },
  SKU_NOT_FOUND: { status: HttpStatus.NOT_FOUND, meaning: 'No published SKU or seller SKU of that id' },
  // Orders and payments.
  ORDER_NOT_FOUND: { status: HttpStatus.NOT_FOUND, meaning: 'No order of that id' },
  ORDER_NOT_CANCELABLE: { status: HttpStatus.CONFLICT, meaning: 'The order is past the point of canceling' },
  ORDER_STATUS_CONFLICT: { status: HttpStatus.CONFLICT, meaning: "The order's status does not allow this" },
  SHIPPING_ADDRESS_MISSING: { status: HttpStatus.CONFLICT, meaning: 'The order needs a shipping address first' },
  DESTINATION_NOT_SERVED: { status: HttpStatus.CONFLICT, meaning: 'A seller does not ship to that country' },
  PRICE_CHANGED: { status: HttpStatus.CONFLICT, meaning: 'The total differs from the one the client expected' },
  CURRENCY_MISMATCH: { status: HttpStatus.CONFLICT, meaning: 'The offers or order are in another currency' },
  PAYMENT_METHOD_REQUIRED: { status: HttpStatus.CONFLICT, meaning: 'Choose a payment method first' },
  NOTHING_TO_REFUND: { status: HttpStatus.CONFLICT, meaning: 'The refund asks for more than is left to refund' },
  CONCURRENT_CHANGE: { status: HttpStatus.CONFLICT, meaning: 'Someone else changed it meanwhile; try again' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code of an error that carries none of its own. */
export function defaultCode(status: number): ErrorCode {
  const byStatus = DEFAULT_CODE_BY_STATUS.get(status);
  if (byStatus) return byStatus;
  return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The first code listed for each status is that status's default. */
const DEFAULT_CODE_BY_STATUS: ReadonlyMap<number, ErrorCode> = new Map(
  (Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeEntry][]).reverse().map(([code, { status }]) => [status, code]),
);
