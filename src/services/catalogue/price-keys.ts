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
 * The keys of a price `p` (an integer of minor units, as the offer schema validates) in an entry of `scope`:
 * `<scope>|<p>`, then `<scope>|<d>:<floor(p / 10^d)>` for d = 1..9, the bucket of the 10^d prices it falls in. The
 * scope is in the key, and only listed entries have keys, so a filter on price keys alone names the scope and the
 * listed state: its only candidate index is `listing_price_keys` (with `scope` and `listed` beside it, every
 * `listing_*` index is one too, and the planner's trial can pick one that reads each entry of the scope, e.g.
 * `listing_price` for a range starting at the cheapest prices). A range's points (`priceKeysWithin`) are at most 9
 * buckets of each size on either side, whatever its width: `[500, 2000]` in EUR is `EUR|2:5`..`EUR|2:9` (500-999),
 * `EUR|3:1` (1000-1999) and `EUR|2000`.
 */

/** Bucket sizes 10^1..10^9: prices are integer minor units up to 10^9 (wider ones take more level-9 buckets). */
const LEVELS = 9;
/** Points a range may look up; a range needing more (only one far beyond 10^9 can) is answered without price keys. */
export const MAX_PRICE_POINTS = 200;

/** The price keys of the in-stock prices of an entry of `scope`, each key once, in the order of the prices given. */
export function priceKeysOf(scope: string, prices: number[]): string[] {
  const keys = new Set<string>();
  for (const price of prices) {
    keys.add(`${scope}|${price}`);
    for (let level = 1; level <= LEVELS; level++) keys.add(bucketKey(scope, level, Math.floor(price / 10 ** level)));
  }
  return [...keys];
}

/**
 * The points covering the integers of `[min, max]` exactly (each price of the range in one of them, no other), from
 * the least: the widest aligned bucket that fits at each step. Undefined over `MAX_PRICE_POINTS`.
 */
export function priceKeysWithin(scope: string, min: number, max: number): string[] | undefined {
  const points: string[] = [];
  let from = Math.ceil(min);
  const end = Math.floor(max) + 1;
  let level = 0;
  while (from < end) {
    while (level < LEVELS && from % 10 ** (level + 1) === 0 && from + 10 ** (level + 1) <= end) level++;
    while (from + 10 ** level > end) level--;
    points.push(level === 0 ? `${scope}|${from}` : bucketKey(scope, level, from / 10 ** level));
    if (points.length > MAX_PRICE_POINTS) return undefined;
    from += 10 ** level;
  }
  return points;
}

function bucketKey(scope: string, level: number, bucket: number): string {
  return `${scope}|${level}:${bucket}`;
}
