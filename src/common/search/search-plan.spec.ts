import { BadRequestException } from '@nestjs/common';
import { parseSearchRequest } from './parse-search-request';
import { planSearch, SearchSpec, toPipeline } from './search-plan';

const spec: SearchSpec = { searchableFields: ['name', 'city'], filterableFields: ['name', 'city', 'published'] };
const plan = (request: unknown) => planSearch(parseSearchRequest(request), spec);

describe('search requests', () => {
  describe('parseSearchRequest', () => {
    it('should accept JSON text, an object, or nothing', () => {
      expect(parseSearchRequest('{"searchTerm":"a"}').searchTerm).toBe('a');
      expect(parseSearchRequest({ limit: '5' }).limit).toBe(5);
      expect(parseSearchRequest('')).toEqual({});
    });

    it('should refuse malformed JSON, non-objects and wrong types', () => {
      expect(() => parseSearchRequest('{')).toThrow(BadRequestException);
      expect(() => parseSearchRequest('[1]')).toThrow(BadRequestException);
      expect(() => parseSearchRequest({ limit: 'many' })).toThrow(BadRequestException);
      expect(() => parseSearchRequest({ sortDirection: 'UP' })).toThrow(BadRequestException);
      expect(() => parseSearchRequest({ searchTerm: 'x'.repeat(257) })).toThrow(BadRequestException);
    });

    it('should refuse operators and prototype keys at any depth', () => {
      expect(() => parseSearchRequest({ query: { name: { $ne: null } } })).toThrow(BadRequestException);
      expect(() => parseSearchRequest({ query: { $where: '1' } })).toThrow(BadRequestException);
      expect(() => parseSearchRequest('{"query":{"a":[{"$gt":1}]}}')).toThrow(BadRequestException);
      expect(() => parseSearchRequest('{"__proto__":{"x":1}}')).toThrow(BadRequestException);
    });
  });

  describe('planSearch', () => {
    it('should match the search term literally over every searchable field', () => {
      const { filter } = plan({ searchTerm: 'a.b*(c' });
      const match = { $regex: 'a\\.b\\*\\(c', $options: 'i' };
      expect(filter).toEqual({ $or: [{ name: match }, { city: match }] });
      expect(new RegExp(match.$regex, 'i').test('xA.B*(Cx')).toBe(true);
      expect(new RegExp(match.$regex, 'i').test('aXbbc')).toBe(false);
    });

    it('should wrap string query values unless ignoreRegexWrap names the field', () => {
      const { filter } = plan({ query: { name: 'Rose', city: 'Oslo', published: true }, ignoreRegexWrap: ['city'] });
      expect(filter).toEqual({
        $and: [{ name: { $regex: 'Rose', $options: 'i' } }, { city: 'Oslo' }, { published: true }],
      });
    });

    it('should match closed-set and id fields by their matching values, so an index serves them', () => {
      const closed: SearchSpec = { ...spec, closedFields: { city: ['OSLO', 'BERLIN', 'OSAKA'] }, idFields: ['name'] };
      const id = '0123456789ABCDEF01234567';
      const { filter } = planSearch(parseSearchRequest({ query: { city: 'os', name: id } }), closed);
      expect(filter).toEqual({ $and: [{ city: { $in: ['OSLO', 'OSAKA'] } }, { name: id.toLowerCase() }] });
      const partialId = planSearch(parseSearchRequest({ query: { name: '0123' } }), closed).filter;
      expect(partialId).toEqual({ name: { $regex: '0123', $options: 'i' } });
    });

    it('should refuse fields the entity does not allow', () => {
      expect(() => plan({ query: { email: 'x' } })).toThrow(BadRequestException);
      expect(() => plan({ sortName: 'email' })).toThrow(BadRequestException);
    });

    it('should default the limit to 20, clamp it to 200, and let page win over offset', () => {
      expect(plan({})).toMatchObject({ skip: 0, limit: 20, page: 0 });
      expect(plan({ limit: 1000 }).limit).toBe(200);
      expect(plan({ offset: 30, limit: 10 })).toMatchObject({ skip: 30, page: 3 });
      expect(plan({ offset: 30, page: 1, limit: 10 })).toMatchObject({ skip: 10, page: 1 });
    });

    it('should sort by the named field with _id as a tie-breaker', () => {
      expect(plan({ sortName: 'name', sortDirection: 'DESC' }).sort).toEqual({ name: -1, _id: -1 });
      expect(plan({}).sort).toEqual({ _id: 1 });
    });
  });

  describe('toPipeline', () => {
    it('should list match, sort, skip, limit and the projection', () => {
      const stages = toPipeline(plan({ limit: 5 }), { name: 1 });
      expect(stages.map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$skip', '$limit', '$project']);
    });
  });
});
