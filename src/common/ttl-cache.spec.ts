import { TtlCache } from './ttl-cache';

describe(TtlCache.name, () => {
  afterEach(() => jest.useRealTimers());

  it('should forget entries after their lifetime', () => {
    jest.useFakeTimers();
    const cache = new TtlCache<string>(1000);
    cache.set('a', 'x');
    cache.set('b', 'y', 5000);
    jest.advanceTimersByTime(1001);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('y');
  });

  it('should keep null values apart from missing ones', () => {
    const cache = new TtlCache<string | null>(1000);
    cache.set('gone', null);
    expect(cache.get('gone')).toBeNull();
    expect(cache.get('other')).toBeUndefined();
  });

  it('should store nothing for a lifetime of zero or less', () => {
    const cache = new TtlCache<string>(0);
    cache.set('a', 'x');
    cache.set('b', 'y', -5);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('should drop the least recently used entry when full', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('should keep an entry read since over one that was not', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
  });
});
