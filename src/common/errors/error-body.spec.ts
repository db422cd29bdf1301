import { BadRequestException, ForbiddenException, HttpException, NotFoundException } from '@nestjs/common';
import { toErrorBody } from './error-body';

describe(toErrorBody.name, () => {
  it('should carry status, reason phrase, message, path and request id', () => {
    expect(toErrorBody(new NotFoundException("Unknown bean 'x'"), '/api/v1/bean/request', 'r-1')).toEqual({
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
    expect(body).toMatchObject({ error: 'Internal Server Error', message: 'Internal server error', status: 500 });
    expect(body).not.toHaveProperty('details');
  });
});
