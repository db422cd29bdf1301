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

  it('should read paging numbers given as text', () => {
    expect(parseSearchRequest('{"page":"2","limit":"10"}')).toMatchObject({ page: 2, limit: 10 });
  });

  // Found by fuzzing: Number() of such an object throws, which was a 500.
  it.each(['{"page":{"toString":null}}', '{"limit":{"valueOf":null,"toString":null}}', '{"offset":[]}'])(
    'should refuse the paging value of %s with a 400',
    (request) => {
      expect(() => parseSearchRequest(request)).toThrow(BadRequestException);
    },
  );
});
