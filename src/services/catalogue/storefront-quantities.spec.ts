import { Types } from 'mongoose';
import { entriesOf, ProductSources, StorefrontEntry } from './storefront-entry';
import type { OfferSource } from './source-records';
import { movedQuantities, quantityPatches, sameQuantities } from './storefront-quantities';

const id = () => new Types.ObjectId();

/** A product with offers in two currencies (one out of stock, one inactive), as in `storefront-entry-sources.spec`. */
function productSources(): ProductSources {
  const [product, light, seeds, pot, nl, jp] = [id(), id(), id(), id(), id(), id()];
  const offer = (sku: Types.ObjectId, seller: Types.ObjectId, price: number, currency: string, quantity: number) => ({
    _id: id(),
    product,
    sku,
    seller,
    price,
    currency,
    quantity,
    active: true,
  });
  return {
    product: { _id: product, name: 'Acer palmatum', published: true, slug: 'acer-palmatum' },
    skus: [
      { _id: seeds, product, code: 'ACER-S', name: 'Seeds', attributes: [{ attribute: light, values: ['Sun'] }] },
      { _id: pot, product, code: 'ACER-P', name: 'Pot 12 cm' },
    ],
    offers: [
      offer(seeds, nl, 500, 'EUR', 3),
      offer(pot, nl, 500, 'EUR', 0),
      offer(pot, jp, 90000, 'JPY', 2),
      { ...offer(seeds, jp, 100, 'JPY', 5), active: false },
    ],
    sellers: new Map([
      [String(nl), { _id: nl, name: 'Green NL', country: 'NL' }],
      [String(jp), { _id: jp, name: 'Niwa', country: 'JP' }],
    ]),
    attributes: new Map([[String(light), { _id: light, name: 'Light', type: 'OPTION', unit: null }]]),
  };
}

/** The entries as stored at `version` (what a whole write leaves). */
function stored(sources: ProductSources, version: number): StorefrontEntry[] {
  return entriesOf(sources).map((entry) => ({ ...entry, version }));
}

/** The stored entries with the patches applied as the database applies a `$set` (dotted paths into copies). */
function patched(entries: StorefrontEntry[], offers: OfferSource[]): StorefrontEntry[] {
  const [all] = entries;
  const moved = movedQuantities(all, offers)!;
  const byId = new Map(entries.map((entry) => [entry._id, entry]));
  for (const write of quantityPatches(all, moved, all.version + 1)) {
    const { filter, update } = (
      write as unknown as { updateOne: { filter: { _id: string; version: number }; update: { $set: object } } }
    ).updateOne;
    const entry = byId.get(filter._id)!;
    expect(entry.version).toBe(filter.version);
    byId.set(filter._id, Object.entries(update.$set).reduce(setPath, entry));
  }
  return entries.map((entry) => byId.get(entry._id)!);
}

/** `doc` with `path` (dotted, array positions as numbers) set to `value`, the containers along it copied. */
function setPath<T extends object>(doc: T, [path, value]: [string, unknown]): T {
  const [head, ...rest] = path.split('.');
  const container = doc as Record<string, unknown>;
  const next = rest.length === 0 ? value : setPath(container[head] as object, [rest.join('.'), value]);
  if (Array.isArray(doc)) return Object.assign([...doc], { [head]: next }) as T;
  return { ...doc, [head]: next };
}

describe(movedQuantities.name, () => {
  it('should patch the entries into what a recomputation gives, when quantities alone moved', () => {
    const sources = productSources();
    const [seedsNl, potNl, potJp, seedsJp] = sources.offers;
    const moves: OfferSource[][] = [
      [{ ...seedsNl, quantity: 1 }, potNl, potJp, seedsJp],
      [seedsNl, potNl, { ...potJp, quantity: 7 }, { ...seedsJp, quantity: 0 }],
      [{ ...seedsNl, quantity: 9 }, potNl, { ...potJp, quantity: 1 }, seedsJp],
    ];
    for (const offers of moves) {
      const expected = stored({ ...sources, offers }, 4);
      expect(patched(stored(sources, 3), offers)).toEqual(expected);
    }
  });

  it('should give nothing when more than quantities moved, or an offer went in or out of stock', () => {
    const sources = productSources();
    const [all] = entriesOf(sources);
    const [seedsNl, potNl, potJp, seedsJp] = sources.offers;
    const changes: OfferSource[][] = [
      [{ ...seedsNl, quantity: 0 }, potNl, potJp, seedsJp],
      [seedsNl, { ...potNl, quantity: 2 }, potJp, seedsJp],
      [seedsNl, potNl, { ...potJp, price: 80000 }, seedsJp],
      [seedsNl, potNl, { ...potJp, currency: 'EUR' }, seedsJp],
      [seedsNl, potNl, { ...potJp, active: false }, seedsJp],
      [seedsNl, potNl, potJp, { ...seedsJp, active: true }],
      [seedsNl, potNl, { ...potJp, seller: seedsNl.seller }, seedsJp],
      [seedsNl, potNl, { ...potJp, sku: seedsNl.sku }, seedsJp],
      [seedsNl, potNl],
    ];
    for (const offers of changes) expect(movedQuantities(all, offers)).toBeUndefined();
  });

  it('should tell when the entry shows the quantities already', () => {
    const sources = productSources();
    const [all] = entriesOf(sources);
    expect(sameQuantities(movedQuantities(all, sources.offers)!, all)).toBe(true);
    const [seedsNl, ...rest] = sources.offers;
    expect(sameQuantities(movedQuantities(all, [{ ...seedsNl, quantity: 2 }, ...rest])!, all)).toBe(false);
  });
});
