import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, OrderBody, orderCall, payOrder } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

const address = { name: 'Ann', street: 'Canal Street', city: 'Amsterdam', postalCode: '1011AA', country: 'NL' };

/** `ship` by the user acting for the order's seller, without an admin; nobody else but an ADMIN. */
describe('orderServiceImpl.ship by the seller', () => {
  let t: TestApp;
  let admin: string;
  let sellerUser: Buyer;
  let otherSellerUser: Buyer;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    [sellerUser, otherSellerUser, buyer] = [await createBuyer(t), await createBuyer(t), await createBuyer(t)];
    await createOffer(t, { sellerUser: otherSellerUser });
  });

  afterAll(() => t.stop());

  /** A PAID order of one unit of a new offer of the seller `sellerUser` acts for. */
  const paidOrder = async (): Promise<string> => {
    const offer = await createOffer(t, { sellerUser: sellerUser });
    const [order] = await checkOut(t, buyer, [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }]);
    expect((await payOrder(t, buyer, order.id, admin, { shippingAddress: address })).orderStatus).toBe('PAID');
    return order.id;
  };
  const statusOf = async (orderId: string) =>
    ((await orderCall(t, 'getOrder', [orderId], buyer.token).expect(200)).body as OrderBody).status;

  it("should let the user acting for the order's seller ship it, booking the parcel", async () => {
    const orderId = await paidOrder();
    await orderCall(t, 'ship', [orderId], sellerUser.token).expect(200, 'true');
    const { body } = await orderCall(t, 'getOrder', [orderId], buyer.token).expect(200);
    const shipped = body as OrderBody;
    expect(shipped).toMatchObject({ status: 'SHIPPED', parcelId: expect.stringMatching(/^par_/) });
    expect(shipped.orderTimeLines.at(-1)).toMatchObject({ status: 'SHIPPED', by: sellerUser.id });
    await orderCall(t, 'ship', [orderId], sellerUser.token).expect(409);
  });

  it("should refuse another seller's user and the buyer with 403, a guest with 401, and change nothing", async () => {
    const orderId = await paidOrder();
    for (const token of [otherSellerUser.token, buyer.token]) {
      const { body } = await orderCall(t, 'ship', [orderId], token).expect(403);
      expect(body).toMatchObject({ status: 403, error: 'Access denied', requestId: expect.any(String) });
    }
    await orderCall(t, 'ship', [orderId]).expect(401);
    expect(await statusOf(orderId)).toBe('PAID');
    await orderCall(t, 'ship', [orderId], admin).expect(200);
    expect(await statusOf(orderId)).toBe('SHIPPED');
  });

  it('should answer 400 for a malformed order id and 404 for an unknown one', async () => {
    const malformed = await orderCall(t, 'ship', ['not-an-id'], sellerUser.token).expect(400);
    expect(malformed.body).toMatchObject({ status: 400, error: 'Bad Request', path: '/api/v1/bean/request' });
    await orderCall(t, 'ship', ['0123456789abcdef01234567'], sellerUser.token).expect(404);
    await orderCall(t, 'ship', [{ $gt: '' }], sellerUser.token).expect(400);
  });
});
