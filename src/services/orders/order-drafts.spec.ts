import { Types } from 'mongoose';
import { OfferDetails } from '../catalogue/offer-catalog';
import { orderTotals } from './order-amounts';
import { amounts, currencySymbol, draftOrders, DraftContext } from './order-drafts';

type SellerRef = OfferDetails['seller'];

function offerOf(seller: SellerRef, price: number, currency: string): OfferDetails {
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

describe('draftOrders', () => {
  const sellerA = { _id: new Types.ObjectId(), name: 'A', country: 'NL' };
  const sellerB = { _id: new Types.ObjectId(), name: 'B', country: 'DE' };
  const context: DraftContext = {
    buyer: { userId: 'u1', username: 'ann' },
    by: 'u1',
    rates: { sellerTaxRate: 21, buyerTaxRate: 21, serviceTaxRate: 10 },
    vendors: new Map([[String(sellerA._id), { userId: 'seller-user' }]]),
    digital: false,
  };

  it('should make one NEW order per seller with integer totals and tax', () => {
    const lines = [
      { offer: offerOf(sellerA, 1299, 'EUR'), quantity: 3 },
      { offer: offerOf(sellerB, 500, 'EUR'), quantity: 1 },
      { offer: offerOf(sellerA, 1, 'EUR'), quantity: 1 },
    ];
    const [first, second] = draftOrders(lines, context);
    expect(first).toMatchObject({ status: 'NEW', subtotal: 3898, tax: 819, total: 4717, currencyCode: 'EUR' });
    expect(first.embeddedVendor).toMatchObject({ name: 'A', userId: 'seller-user' });
    expect(first.commerceItems).toHaveLength(2);
    expect(first.orderTimeLines).toEqual([expect.objectContaining({ status: 'NEW', by: 'u1' })]);
    expect(second).toMatchObject({ subtotal: 500, total: 605, embeddedVendor: { name: 'B' } });
  });

  it("should split a seller's lines by currency", () => {
    const lines = [
      { offer: offerOf(sellerA, 100, 'EUR'), quantity: 1 },
      { offer: offerOf(sellerA, 100, 'JPY'), quantity: 1 },
    ];
    expect(draftOrders(lines, context).map((order) => order.currencyCode)).toEqual(['EUR', 'JPY']);
  });
});

describe('amounts', () => {
  it('should round tax half up to the minor unit', () => {
    expect(amounts(250, 21)).toEqual({ subtotal: 250, tax: 53, total: 303 });
    expect(amounts(0, 21)).toEqual({ subtotal: 0, tax: 0, total: 0 });
  });

  it('should tax goods and shipping together and add both to the total', () => {
    // (250 + 495) × 21 % = 156.45 → 156.
    expect(amounts(250, 21, 495)).toEqual({ subtotal: 250, tax: 156, total: 250 + 495 + 156 });
  });
});

describe('parcel weight', () => {
  it("should weigh the SKUs' weights, or 500 g per item without one", () => {
    const context: DraftContext = {
      buyer: { userId: 'u1', username: 'ann' },
      by: 'u1',
      rates: { sellerTaxRate: 0, buyerTaxRate: 0, serviceTaxRate: 0 },
      vendors: new Map(),
      digital: false,
    };
    const seller = { _id: new Types.ObjectId(), name: 'A', country: 'NL' };
    const heavy = offerOf(seller, 100, 'EUR');
    heavy.sku.weightGrams = 1200;
    const lines = [
      { offer: heavy, quantity: 2 },
      { offer: offerOf(seller, 100, 'EUR'), quantity: 3 },
    ];
    expect(draftOrders(lines, context)[0].packageItem).toEqual({ weightGrams: 2400 + 1500 });
    expect(draftOrders(lines, { ...context, digital: true })[0].packageItem).toBeUndefined();
  });
});

describe('orderTotals', () => {
  it('should charge goods, shipping and VAT on both; the fee is on the goods and not charged', () => {
    const totals = orderTotals({ goods: 3702, shipping: 695, buyerTaxRate: 20, serviceTaxRate: 10 });
    expect(totals).toEqual({ goods: 3702, shipping: 695, tax: 879, fees: 370, total: 3702 + 695 + 879 });
    const unquoted = orderTotals({ goods: 1000, shipping: null, buyerTaxRate: 21, serviceTaxRate: 0 });
    expect(unquoted).toEqual({ goods: 1000, shipping: null, tax: 210, fees: 0, total: 1210 });
  });
});

describe('currencySymbol', () => {
  it('should name known currencies and fall back to the code', () => {
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('ZZZ')).toBe('ZZZ');
  });
});
