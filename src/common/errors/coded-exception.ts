import {
  BadRequestException,
  ConflictException,
  HttpException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { ERROR_CODES, ErrorCode } from './error-codes';

type ExceptionClass = new (response: object) => HttpException;

/** Nest's class for each status a domain code has, so that `instanceof ConflictException` keeps holding. */
const EXCEPTION_BY_STATUS: ReadonlyMap<number, ExceptionClass> = new Map<number, ExceptionClass>([
  [400, BadRequestException],
  [401, UnauthorizedException],
  [404, NotFoundException],
  [409, ConflictException],
]);

/**
 * The exception of a domain error with its stable code; its status comes from {@link ERROR_CODES}.
 * @example throw codedError('CART_EMPTY', 'The cart is empty'); // 409 {code: 'CART_EMPTY', message: ...}
 */
export function codedError(code: ErrorCode, message: string, details?: object[]): HttpException {
  const { status } = ERROR_CODES[code];
  const response = details ? { message, code, details } : { message, code };
  const Exception = EXCEPTION_BY_STATUS.get(status);
  return Exception ? new Exception(response) : new HttpException(response, status);
}
