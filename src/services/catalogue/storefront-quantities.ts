import { mongo } from 'mongoose';
import { EntryOffer, entryId, OfferSource, StorefrontEntry } from './storefront-entry';

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
 * entries per currency (`entry.currencies`, the same after such a move), each getting its offers, its cheapest offer
 * and the version, conditionally on the version read, as `entriesOf` would have them. The all-currencies patch is an
 * upsert, so that an entry at another version than read makes it a duplicate key, which stops the ordered write before
 * the entries per currency (the change lost, as a whole write's does). An entry per currency not at the version read
 * (written by a newer refresh, or left behind) is left as it is and makes the bulk write match fewer documents than
 * it has writes: the caller then refreshes the product from every source.
 */
export function quantityPatches(
  entry: StorefrontEntry,
  moved: EntryOffer[],
  version: number,
): mongo.AnyBulkWriteOperation<Doc>[] {
  const read = entry.version;
  const allCurrencies = {
    updateOne: { filter: { _id: entry._id, version: read } as Doc, update: patchOf(moved, version), upsert: true },
  };
  const perCurrency = entry.currencies.map((currency): mongo.AnyBulkWriteOperation<Doc> => ({
    updateOne: {
      filter: { _id: entryId(entry.product, currency), version: read } as Doc,
      update: patchOf(
        moved.filter((offer) => offer.currency === currency),
        version,
      ),
    },
  }));
  return [allCurrencies, ...perCurrency];
}

/** An entry's fields that follow the offers' quantities; `cheapest` is the first in stock (offers are cheapest first). */
function patchOf(offers: EntryOffer[], version: number): Doc {
  return { $set: { version, offers, cheapest: offers.find((offer) => offer.quantity > 0) ?? null } };
}
