import { isIndexable } from './special-pages';

describe('isIndexable', () => {
  it('should refuse the 404 page and robots noindex or none, in any case and position', () => {
    expect(isIndexable({ pageUrl: '404' })).toBe(false);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: 'noindex' } })).toBe(false);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: 'follow, NOINDEX' } })).toBe(false);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: 'None' } })).toBe(false);
  });

  it('should keep other pages, robots values that only look alike, and non-text values', () => {
    expect(isIndexable({ pageUrl: '4040' })).toBe(true);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: 'index, nofollow' } })).toBe(true);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: 'noindexed-by-mistake' } })).toBe(true);
    expect(isIndexable({ pageUrl: 'a', metaInfo: { robots: ['noindex'] } })).toBe(true);
    expect(isIndexable({ pageUrl: 'a' })).toBe(true);
  });
});
