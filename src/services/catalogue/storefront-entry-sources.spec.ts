import { Types } from 'mongoose';
import { entriesOf, ProductSources, StorefrontEntry } from './storefront-entry';
import type { OfferSource } from './source-records';
import { sourcesFromEntry } from './storefront-entry-sources';

const id = () => new Types.ObjectId();

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
    product: {
      _id: product,
      name: 'Acer palmatum',
      description: 'Japanese maple',
      attributes: [{ attribute: light, values: ['Shade'] }],
      countryOfOrigin: 'JP',
      published: true,
      translations: [{ lang: 'de', name: 'Fächerahorn', description: 'Ahorn' }],
      slug: 'acer-palmatum',
      createdAt: new Date('2026-01-01'),
    },
    skus: [
      { _id: seeds, product, code: 'ACER-S', name: 'Seeds', attributes: [{ attribute: light, values: ['Sun'] }] },
      { _id: pot, product, code: 'ACER-P', name: 'Pot 12 cm' },
    ],
    offers: [
      offer(seeds, nl, 500, 'EUR', 3),
      offer(pot, nl, 1500, 'EUR', 1),
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

/** The entries recomputed from the stored all-currencies entry and `offers`. */
function derived(sources: ProductSources, offers: OfferSource[]): StorefrontEntry[] | undefined {
  const [stored] = entriesOf(sources);
  const fromEntry = sourcesFromEntry(stored, offers);
  return fromEntry && entriesOf(fromEntry);
}

describe(sourcesFromEntry.name, () => {
  describe('with an entry that shows every active offer', () => {
    it('should give the entries a recomputation from every source gives, after stock, price and active changes', () => {
      const sources = productSources();
      const [seedsNl, potNl, potJp, seedsJp] = sources.offers;
      const changes: OfferSource[][] = [
        [{ ...seedsNl, quantity: 0 }, potNl, potJp, seedsJp],
        [seedsNl, potNl, { ...potJp, quantity: 0 }, seedsJp],
        [seedsNl, { ...potNl, price: 100, currency: 'USD' }, potJp, seedsJp],
        [seedsNl, potNl, { ...potJp, active: false }, seedsJp],
        [{ ...seedsNl, quantity: 0 }, { ...potNl, quantity: 0 }, { ...potJp, quantity: 0 }, seedsJp],
        [seedsNl, potNl],
      ];
      for (const offers of changes) expect(derived(sources, offers)).toEqual(entriesOf({ ...sources, offers }));
    });

    it('should keep a deleted attribute without a label, as the recomputation does', () => {
      const sources = { ...productSources(), attributes: new Map() };
      expect(derived(sources, sources.offers)).toEqual(entriesOf(sources));
    });
  });

  describe('with an entry that cannot say', () => {
    it('should give nothing for an active offer of a seller the entry does not show', () => {
      const sources = productSources();
      const stranger = { ...sources.offers[0], _id: id(), seller: id() };
      expect(derived(sources, [...sources.offers, stranger])).toBeUndefined();
    });

    it('should give nothing for an offer reactivated whose seller shows in no other offer', () => {
      const sources = productSources();
      sources.offers = sources.offers.filter((offer) => offer.active === false || offer.currency === 'EUR');
      const reactivated = sources.offers.map((offer) => ({ ...offer, active: true }));
      expect(derived(sources, reactivated)).toBeUndefined();
    });

    it('should give nothing for a product without a slug yet, nor for a tombstone', () => {
      const sources = productSources();
      delete sources.product.slug;
      expect(derived(sources, sources.offers)).toBeUndefined();
      const tombstone = { _id: 'x', product: id(), scope: '*', listed: false, facets: [], currencies: [] };
      expect(sourcesFromEntry(tombstone as unknown as StorefrontEntry, [])).toBeUndefined();
    });
  });
});
