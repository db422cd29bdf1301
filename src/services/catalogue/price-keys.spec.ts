import fc from 'fast-check';
import { MAX_PRICE_POINTS, priceKeysOf, priceKeysWithin } from './price-keys';

describe('price keys', () => {
  it('should cover [500, 2000] with buckets of hundreds, one of thousands and the last price', () => {
    const bucket = (key: string) => `EUR|${key}`;
    expect(priceKeysWithin('EUR', 500, 2000)).toEqual(['2:5', '2:6', '2:7', '2:8', '2:9', '3:1', '2000'].map(bucket));
  });

  it('should find an entry exactly when one of its prices is within the range (brute force)', () => {
    const price = fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 10 ** 9 }));
    fc.assert(
      fc.property(fc.array(price, { minLength: 1, maxLength: 4 }), price, price, (prices, a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const points = priceKeysWithin('*', min, max)!;
        const keys = new Set(priceKeysOf('*', prices));
        expect(points.some((point) => keys.has(point))).toBe(prices.some((p) => p >= min && p <= max));
      }),
      { numRuns: 5000, seed: 20261128 },
    );
  });

  it('should cover each price of a range with exactly one point, whatever its width', () => {
    for (const [min, max] of [
      [0, 0],
      [7, 7],
      [0, 10 ** 9],
      [1, 10 ** 9 - 1],
      [123, 987654321],
    ]) {
      const points = priceKeysWithin('USD', min, max)!;
      expect(points.length).toBeLessThanOrEqual(2 * 9 * 9 + 1);
      for (const p of [min, max, Math.floor((min + max) / 2)]) {
        expect(priceKeysOf('USD', [p]).filter((key) => points.includes(key))).toHaveLength(1);
        expect(priceKeysOf('EUR', [p]).filter((key) => points.includes(key))).toHaveLength(0);
      }
    }
  });

  it('should give up on a range needing more than the points a query may look up', () => {
    expect(priceKeysWithin('EUR', 0, 10 ** 12)).toBeUndefined();
    expect(priceKeysWithin('EUR', 0, 10 ** 9 * MAX_PRICE_POINTS)).toBeUndefined();
  });
});
