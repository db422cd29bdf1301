import { settlementOf } from './settlement-amounts';

describe('settlementOf', () => {
  it('should take the commission on the subtotal and its VAT from the payout', () => {
    expect(
      settlementOf({ subtotal: 3702, tax: 777, total: 4479, serviceTaxRate: 10, sellerTaxRate: 21, refunded: 0 }),
    ).toEqual({
      commission: 370,
      commissionTax: 78,
      commissionTotal: 448,
      payout: 4031,
    });
  });

  it('should pay everything out without a commission', () => {
    const order = { subtotal: 1000, tax: 0, total: 1000, serviceTaxRate: 0, sellerTaxRate: 21, refunded: 0 };
    expect(settlementOf(order).payout).toBe(1000);
  });

  it('should take confirmed refunds from the payout and keep the commission on the goods as sold', () => {
    const order = { subtotal: 3702, tax: 777, total: 4479, serviceTaxRate: 10, sellerTaxRate: 21, refunded: 1493 };
    expect(settlementOf(order)).toMatchObject({ commissionTotal: 448, payout: 4479 - 1493 - 448 });
  });
});
