import { mongo } from 'mongoose';

/** A listed product as the products list filters show it, recomputed from the source collections. */
export interface ListedProductRow {
  id: string;
  name: string;
  /** Its active offers with stock. */
  count: number;
}

/**
 * The listed products (published, with an active offer in stock) whose name contains `term` literally, ignoring
 * case (blank: all), in the index's name order (code points, then id), read straight from the source collections.
 */
export async function listedProductsNamed(db: mongo.Db, term: string): Promise<ListedProductRow[]> {
  const [products, offers] = await Promise.all([
    db.collection('products').find({ published: true }).toArray(),
    db
      .collection('seller_skus')
      .find({ quantity: { $gt: 0 }, active: { $ne: false } })
      .toArray(),
  ]);
  const counts = new Map<string, number>();
  for (const offer of offers) counts.set(String(offer.product), (counts.get(String(offer.product)) ?? 0) + 1);
  const needle = term.trim().toLowerCase();
  return products
    .map((product) => ({ id: String(product._id), name: String(product.name), count: counts.get(String(product._id)) }))
    .filter((row): row is ListedProductRow => row.count !== undefined && row.name.toLowerCase().includes(needle))
    .sort((a, b) => byCodePoints(a.name, b.name) || byCodePoints(a.id, b.id));
}

/** `id → count` of rows, as `asCounts` gives an answer. */
export const countsOf = (rows: ListedProductRow[]) => Object.fromEntries(rows.map((row) => [row.id, row.count]));

const byCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
