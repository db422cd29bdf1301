import { mongo } from 'mongoose';
import { EntryOffer, entryId, StorefrontEntry } from './storefront-entry';
import type { OfferSource } from './source-records';

type Doc = mongo.BSON.Document;

/**
 * The offers of a product's entries after writes that moved its offers' quantities alone, each offer staying in stock
 * or out of it: the stored all-currencies entry's offers with the quantities of `offers` (the product's offers as
 * stored now). Undefined when anything else an entry shows of them moved: an offer made, (de)activated, repriced, or
 * moved to another currency, SKU or seller, or one gone in or out of stock.
 *
 * In that case nothing of the entries but their offers' quantities changes: `entriesOf` orders offers by price and
 * id, and derives everything else (listed, price, the cheapest offer, attribute keys, key prices, search keys,
 * in-stock SKUs, currencies, counters) from the offers' other fields and which of them are in stock. So the entries
 * are written as patches of their offers (`quantityPatches`) instead of being derived and written whole: no search
 * words made, a tenth of the bytes sent and parsed.
 */
export function movedQuantities(entry: StorefrontEntry, offers: OfferSource[]): EntryOffer[] | undefined {
  const active = new Map(offers.filter((offer) => offer.active !== false).map((offer) => [String(offer._id), offer]));
  if (active.size !== entry.offers.length) return undefined;
  const moved: EntryOffer[] = [];
  for (const shown of entry.offers) {
    const now = active.get(String(shown._id));
    if (!now || !sameBesidesQuantity(now, shown)) return undefined;
    moved.push({ ...shown, quantity: now.quantity });
  }
  return moved;
}

function sameBesidesQuantity(now: OfferSource, shown: EntryOffer): boolean {
  return (
    now.sku.equals(shown.sku) &&
    now.seller.equals(shown.seller) &&
    now.price === shown.price &&
    now.currency === shown.currency &&
    now.quantity > 0 === shown.quantity > 0
  );
}

/** Whether `moved` (from `movedQuantities`) holds the quantities the entry shows already. */
export function sameQuantities(moved: EntryOffer[], entry: StorefrontEntry): boolean {
  return moved.every((offer, at) => offer.quantity === entry.offers[at].quantity);
}

/**
 * The writes of `moved` into the product's entries at `version`: the all-currencies entry (`entry`, as read) and its
 * entries per currency (`entry.currencies`, the same after such a move), each getting the quantities that moved, by
 * their offers' positions, its cheapest offer's quantity and the version, conditionally on the version read, as
 * `entriesOf` would have them. The version read pins the entries' offers as read: every write of an entry sets its
 * version, and an entry per currency at the version of the all-currencies one was written from the same offers (the
 * all-currencies entry's in its currency, in the same order). The all-currencies patch is an upsert, so that an entry
 * at another version than read makes it a duplicate key, which stops the ordered write before the entries per
 * currency (the change lost, as a whole write's does). An entry per currency not at the version read (written by a
 * newer refresh, or left behind) is left as it is and makes the bulk write match fewer documents than it has writes:
 * the caller then refreshes the product from every source.
 */
export function quantityPatches(
  entry: StorefrontEntry,
  moved: EntryOffer[],
  version: number,
): mongo.AnyBulkWriteOperation<Doc>[] {
  const read = entry.version;
  const allCurrencies = {
    updateOne: {
      filter: { _id: entry._id, version: read } as Doc,
      update: patchOf(entry.offers, moved, version),
      upsert: true,
    },
  };
  const perCurrency = entry.currencies.map((currency): mongo.AnyBulkWriteOperation<Doc> => {
    const inCurrency = (offers: EntryOffer[]) => offers.filter((offer) => offer.currency === currency);
    return {
      updateOne: {
        filter: { _id: entryId(entry.product, currency), version: read } as Doc,
        update: patchOf(inCurrency(entry.offers), inCurrency(moved), version),
      },
    };
  });
  return [allCurrencies, ...perCurrency];
}

/**
 * The `$set` of an entry's quantities that moved from `shown` (its offers as read) to `moved`, by position, and of its
 * cheapest offer's, the first in stock (offers are cheapest first; which one it is stays with the offers in stock):
 * a few numbers, where the offers whole were most of the command's bytes and of the database's work on it.
 */
function patchOf(shown: EntryOffer[], moved: EntryOffer[], version: number): Doc {
  const set: Doc = { version };
  moved.forEach((offer, at) => {
    if (offer.quantity !== shown[at].quantity) set[`offers.${at}.quantity`] = offer.quantity;
  });
  const cheapest = moved.findIndex((offer) => offer.quantity > 0);
  if (cheapest >= 0 && moved[cheapest].quantity !== shown[cheapest].quantity)
    set['cheapest.quantity'] = moved[cheapest].quantity;
  return { $set: set };
}
