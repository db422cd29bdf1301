import { BadRequestException } from '@nestjs/common';
import { parseSearchRequest } from './parse-search-request';

const nestedQuery = (depth: number) => `{"query":{"name":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

describe(parseSearchRequest.name, () => {
  it('should accept a query nested within the limit', () => {
    expect(parseSearchRequest(nestedQuery(30)).query).toEqual({ name: expect.any(Array) });
  });

  it.each([33, 5000, 100_000])('should refuse a query nested %i levels deep with a 400', (depth) => {
    expect(() => parseSearchRequest(nestedQuery(depth))).toThrow(BadRequestException);
  });
});
