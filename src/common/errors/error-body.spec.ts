import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { codedError } from './coded-exception';
import { toErrorBody } from './error-body';
import { ERROR_CODES, defaultCode } from './error-codes';
import { TooManyRequestsException } from './too-many-requests';

describe(toErrorBody.name, () => {
  it('should carry status, reason phrase, message, path and request id', () => {
    expect(toErrorBody(new NotFoundException("Unknown bean 'x'"), '/api/v1/bean/request', 'r-1')).toEqual({
      code: 'NOT_FOUND',
      error: 'Not Found',
      message: "Unknown bean 'x'",
      status: 404,
      path: '/api/v1/bean/request',
      timestamp: expect.any(String),
      requestId: 'r-1',
    });
  });

  it('should always call a 403 "Access denied"', () => {
    expect(toErrorBody(new ForbiddenException('Requires role ADMIN'), '/', 'r')).toMatchObject({
      error: 'Access denied',
      status: 403,
    });
  });

  it('should pass field problems on as details', () => {
    const details = [{ field: 'args[0].total', message: 'total must not be less than 0' }];
    expect(toErrorBody(new BadRequestException({ message: 'Validation failed', details }), '/', 'r').details).toEqual(
      details,
    );
  });

  it('should turn a list of messages into details', () => {
    const body = toErrorBody(new BadRequestException(['a must be a string']), '/', 'r');
    expect(body).toMatchObject({
      message: 'Validation failed',
      details: [{ field: '', message: 'a must be a string' }],
    });
  });

  it('should keep a string response as the message', () => {
    expect(toErrorBody(new HttpException('Slow down', 429), '/', 'r')).toMatchObject({
      error: 'Too Many Requests',
      message: 'Slow down',
    });
  });

  it('should map exposed client errors of Express middleware', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), {
      status: 413,
      expose: true,
      type: 'entity.too.large',
      limit: 1024,
    });
    expect(toErrorBody(tooLarge, '/', 'r')).toMatchObject({
      status: 413,
      message: 'Request body exceeds the limit of 1024 bytes',
    });
  });

  it.each([
    new Error('connection string mongodb://user:pw@host'),
    'text',
    null,
    Object.assign(new Error('x'), { status: 503, expose: false }),
  ])('should answer %p with a bare 500', (exception) => {
    const body = toErrorBody(exception, '/', 'r');
    expect(body).toMatchObject({
      code: 'INTERNAL_ERROR',
      error: 'Internal Server Error',
      message: 'Internal server error',
      status: 500,
    });
    expect(body).not.toHaveProperty('details');
  });
});

describe('error codes', () => {
  it('should carry the code of a domain error with the status listed for it', () => {
    const exception = codedError('CART_EMPTY', 'The cart is empty');
    expect(exception).toBeInstanceOf(ConflictException);
    expect(toErrorBody(exception, '/', 'r')).toMatchObject({
      code: 'CART_EMPTY',
      status: 409,
      message: 'The cart is empty',
    });
  });

  it('should give an error without a code the default of its status', () => {
    expect(toErrorBody(new ForbiddenException('Requires role ADMIN'), '/', 'r').code).toBe('ACCESS_DENIED');
    expect(toErrorBody(new BadRequestException('bad'), '/', 'r').code).toBe('BAD_REQUEST');
    expect(toErrorBody(new TooManyRequestsException('Slow down', 3), '/', 'r').code).toBe('RATE_LIMITED');
    expect(toErrorBody(new HttpException('Gone', 410), '/', 'r').code).toBe('BAD_REQUEST');
    expect(toErrorBody(new HttpException('Bad gateway', 502), '/', 'r').code).toBe('INTERNAL_ERROR');
  });

  it('should call field problems VALIDATION_FAILED', () => {
    const details = [{ field: 'args[0].total', message: 'total must not be less than 0' }];
    expect(toErrorBody(new BadRequestException({ message: 'Validation failed', details }), '/', 'r').code).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('should call field problems of another status by that status (a health check that is not ready)', () => {
    const details = [{ field: 'relay', message: 'down' }];
    const notReady = new ServiceUnavailableException({ message: 'Not ready: relay down', details });
    expect(toErrorBody(notReady, '/', 'r')).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details });
  });

  it.each([
    ['an unknown code', new BadRequestException({ message: 'x', code: 'MADE_UP' })],
    ['a code listed for another status', new BadRequestException({ message: 'x', code: 'CART_EMPTY' })],
    ['a code that is no string', new BadRequestException({ message: 'x', code: { toString: () => 'CART_EMPTY' } })],
  ])('should not trust %s', (_case, exception) => {
    expect(toErrorBody(exception, '/', 'r').code).toBe('BAD_REQUEST');
  });

  it('should make every status of the table answer with a code listed for it', () => {
    for (const { status } of Object.values(ERROR_CODES)) expect(ERROR_CODES[defaultCode(status)].status).toBe(status);
  });
});
