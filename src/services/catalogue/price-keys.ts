/**
 * Price keys: what a listed entry keeps of its in-stock offers' prices (`priceKeys`, multikey index
 * `listing_price_keys`) so that a price range's total is one count of index keys, no entry read.
 *
 * A range on a multikey field cannot be counted from its keys alone: `{priceKeys: {$elemMatch: {$gte, $lte}}}` also
 * holds for no scalar, so the database (the embedded one as MongoDB) reads each entry to check it, and without
 * `$elemMatch` the two bounds may hold on two different prices. Equality with one of a set of points is exact on a
 * multikey field, and the embedded database counts each entry once (`IndexScan.countAll`). So each price is kept
 * with its decimal buckets, and a range is the set of buckets and prices that exactly covers it: an entry has an
 * in-stock price within the range exactly when it has a key among those points.
 *
 * The keys of a price `p` (an integer of minor units, as the offer schema validates): `p` itself (a number), then
 * `"<d>:<floor(p / 10^d)>"` for d = 1..9, the bucket of the 10^d prices it falls in. A range's points
 * (`priceKeysWithin`) are at most 9 buckets of each size on either side, whatever its width: `[500, 2000]` is
 * `2:5`..`2:9` (500-999), `3:1` (1000-1999) and `2000`.
 */

/** Bucket sizes 10^1..10^9: prices are integer minor units up to 10^9 (wider ones take more level-9 buckets). */
const LEVELS = 9;
/** Points a range may look up; a range needing more (only one far beyond 10^9 can) is answered without price keys. */
export const MAX_PRICE_POINTS = 200;

export type PriceKey = number | string;

/** The price keys of an entry's in-stock prices, each key once, in the order of the prices given. */
export function priceKeysOf(prices: number[]): PriceKey[] {
  const keys = new Set<PriceKey>();
  for (const price of prices) {
    keys.add(price);
    for (let level = 1; level <= LEVELS; level++) keys.add(bucketKey(level, Math.floor(price / 10 ** level)));
  }
  return [...keys];
}

/**
 * The points covering the integers of `[min, max]` exactly (each price of the range in one of them, no other), from
 * the least: the widest aligned bucket that fits at each step. Undefined over `MAX_PRICE_POINTS`.
 */
export function priceKeysWithin(min: number, max: number): PriceKey[] | undefined {
  const points: PriceKey[] = [];
  let from = Math.ceil(min);
  const end = Math.floor(max) + 1;
  let level = 0;
  while (from < end) {
    while (level < LEVELS && from % 10 ** (level + 1) === 0 && from + 10 ** (level + 1) <= end) level++;
    while (from + 10 ** level > end) level--;
    points.push(level === 0 ? from : bucketKey(level, from / 10 ** level));
    if (points.length > MAX_PRICE_POINTS) return undefined;
    from += 10 ** level;
  }
  return points;
}

function bucketKey(level: number, bucket: number): string {
  return `${level}:${bucket}`;
}
