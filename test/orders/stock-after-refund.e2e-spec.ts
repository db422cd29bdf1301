import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall, payOrder } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

type SellerOffer = {
  id: string;
  quantity: number;
  reserved: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
};
type RefundedOrder = OrderBody & { refunds: { status: string }[] };

const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };

/**
 * Issue 24, the stock leak: buy 2, pay, the seller refunds 1 item (restocked: the goods never left), the seller
 * ships. Shipping takes off hand what is left after refunds, so nothing stays reserved and the seller can set the
 * stock to 0. Through the public interface: the seller reads its offer with `GET /catalogue/sellers/me/offers`.
 */
describe('stock after a partial refund before shipping', () => {
  let t: TestApp;
  let seller: Buyer;
  let buyer: Buyer;
  let stomp: TestStompClient;
  let sellerId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { CARD_PAYMENT_WEBHOOK_SECRET: 'card-secret-for-tests' } });
    [seller, buyer] = [await createBuyer(t), await createBuyer(t)];
    ({ sellerId } = await createOffer(t, { sellerUser: seller }));
    stomp = await TestStompClient.connect(t.url, { token: buyer.token });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  /** Another offer of the one seller `seller` acts for. */
  const newOffer = (quantity: number) => createOffer(t, { sellerUser: seller, sellerId, quantity });
  const sellerOffer = async (offerId: string): Promise<SellerOffer> => {
    const { body } = await t.http
      .get('/api/v1/catalogue/sellers/me/offers')
      .set('Authorization', `Bearer ${seller.token}`)
      .expect(200);
    return (body as { items: SellerOffer[] }).items.find((offer) => offer.id === offerId)!;
  };

  it('should leave nothing reserved once the rest has shipped, so the stock can be set to 0', async () => {
    const offer = await newOffer(10);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    await payOrder(t, buyer, order.id, t.tokenFor(Role.ADMIN), { shippingAddress: address });
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 8, reserved: 2 });

    const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
    await orderCall(t, 'refundOrder', [{ orderId: order.id, items }], seller.token).expect(200);
    await stomp.next<{ data: RefundedOrder }>(`/topic/order/${order.id}`, ({ data }) =>
      data.refunds.some((refund) => refund.status === 'SUCCEEDED'),
    );
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 9, reserved: 1 });

    await orderCall(t, 'ship', [order.id], seller.token).expect(200, 'true');
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 9, reserved: 0 });

    const [{ warehouseId }] = (await sellerOffer(offer.sellerSkuId)).stockByWarehouse;
    await t.http
      .put(`/api/v1/catalogue/offers/${offer.sellerSkuId}/stock/${warehouseId}`)
      .set('Authorization', `Bearer ${seller.token}`)
      .send({ quantity: 0 })
      .expect(200);
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 0, reserved: 0 });
  });

  it('should take refunded units kept out of sale off hand at once, and ship the rest', async () => {
    const offer = await newOffer(5);
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 2 }]);
    await stomp.subscribe(`/topic/order/${order.id}`);
    await payOrder(t, buyer, order.id, t.tokenFor(Role.ADMIN), { shippingAddress: address });

    const items = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
    await orderCall(t, 'refundOrder', [{ orderId: order.id, items, restock: false }], seller.token).expect(200);
    await stomp.next<{ data: RefundedOrder }>(`/topic/order/${order.id}`, ({ data }) =>
      data.refunds.some((refund) => refund.status === 'SUCCEEDED'),
    );
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 3, reserved: 1 });

    await orderCall(t, 'ship', [order.id], seller.token).expect(200, 'true');
    expect(await sellerOffer(offer.sellerSkuId)).toMatchObject({ quantity: 3, reserved: 0 });
  });
});
