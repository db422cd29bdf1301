import { Types } from 'mongoose';
import { sumByCurrency, toCartView } from './cart.view';
import { OfferDetails } from '../catalogue/offer-catalog';

const sellerA = { _id: new Types.ObjectId(), name: 'A', country: 'NL' };
const sellerB = { _id: new Types.ObjectId(), name: 'B', country: 'JP' };

function offer(seller: typeof sellerA, price: number, currency: string): OfferDetails {
  return {
    _id: new Types.ObjectId(),
    price,
    currency,
    quantity: 10,
    active: true,
    product: { _id: new Types.ObjectId(), name: 'Fern', published: true, images: [] },
    sku: { _id: new Types.ObjectId(), name: 'Young plant', code: 'F-1' },
    seller,
  };
}

describe('toCartView', () => {
  const euro = offer(sellerA, 1299, 'EUR');
  const yen = offer(sellerB, 2400, 'JPY');
  const euro2 = offer(sellerA, 1, 'EUR');
  const offers = new Map([euro, yen, euro2].map((o) => [String(o._id), o]));
  const line = (o: OfferDetails, quantity: number) => ({ _id: new Types.ObjectId(), sellerSku: o._id, quantity });

  it('should group lines by seller with totals per currency in minor units', () => {
    const cart = { buyerId: 'b', items: [line(euro, 3), line(yen, 2), line(euro2, 1)] };
    const view = toCartView(cart, offers);
    expect(view.sellers.map((seller) => [seller.sellerName, seller.items.length])).toEqual([
      ['A', 2],
      ['B', 1],
    ]);
    expect(view.sellers[0].totals).toEqual([{ currency: 'EUR', amount: 3898 }]);
    expect(view.totals).toEqual([
      { currency: 'EUR', amount: 3898 },
      { currency: 'JPY', amount: 4800 },
    ]);
    expect(view.itemCount).toBe(6);
  });

  it('should leave out lines whose offer is gone', () => {
    const view = toCartView({ buyerId: 'b', items: [line(offer(sellerA, 5, 'EUR'), 1)] }, offers);
    expect(view).toMatchObject({ sellers: [], totals: [], itemCount: 0, id: null, updatedAt: null });
  });
});

describe('sumByCurrency', () => {
  it('should add integer amounts exactly', () => {
    const lines = Array.from({ length: 1000 }, () => ({ currency: 'USD', total: 10 }));
    expect(sumByCurrency(lines)).toEqual([{ currency: 'USD', amount: 10000 }]);
  });
});
