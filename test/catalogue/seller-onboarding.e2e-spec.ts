import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { checkOut, giveAddress, payOrder } from '../orders/support/order-calls';
import { TestStompClient } from '../realtime/stomp-client';
import { pdfPages } from '../support/pdf-text';
import { startTestApp, TestApp } from '../support/test-app';

const ONBOARDING = 'sellerOnboardingServiceImpl';
const CONNECT = 'cardConnectServiceMock';

interface ApplicationView {
  id: string;
  userId: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  reason: string | null;
  decidedBy: string | null;
  sellerId: string | null;
  profileId: string | null;
  company: Record<string, string>;
}

interface Person {
  id: string;
  username: string;
  token: string;
}

const application = (overrides: Record<string, unknown> = {}) => ({
  companyName: 'Groene Vingers B.V.',
  street: 'Herengracht 1',
  postalCode: '1015 BA',
  city: 'Amsterdam',
  country: 'NL',
  vatId: 'NL 123456789 B01',
  email: 'info@groene-vingers.test',
  ...overrides,
});

/** Seller onboarding through the public interface only: accounts, applications, offers and payouts via the API. */
describe('sellerOnboardingServiceImpl', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // The demo catalogue gives SKUs to offer; no model is written by this test.
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    admin = t.tokenFor(Role.ADMIN);
  });

  afterAll(async () => {
    await t.stop();
  });

  const onboarding = (fn: string, args: unknown[], token: string | undefined) =>
    t.callBean(ONBOARDING, fn, args, { token });
  const connect = (fn: string, args: unknown[], token: string) => t.callBean(CONNECT, fn, args, { token });

  /** A USER made by an operator through user management, logged in with its password. */
  async function newUser(): Promise<Person> {
    const username = `u-${randomUUID().slice(0, 8)}`;
    const password = `pw-${randomUUID()}`;
    const created = await t
      .callBean('userManagementServiceImpl', 'createUser', [{ username, email: `${username}@shop.test`, password }], {
        token: admin,
      })
      .expect(200);
    const login = await t.http.post('/api/v1/auth/token').send({ username, password }).expect(200);
    return { id: (created.body as { id: string }).id, username, token: (login.body as { token: string }).token };
  }

  async function apply(person: Person, overrides: Record<string, unknown> = {}): Promise<ApplicationView> {
    return (await onboarding('applyAsSeller', [application(overrides)], person.token).expect(200))
      .body as ApplicationView;
  }

  /** A record's audit trail, newest first, as `[action, actor name]`. */
  async function auditTrail(type: string, id: string): Promise<[string, string][]> {
    const trail = await t.callBean('auditServiceImpl', 'getAuditTrail', [type, id], { token: admin }).expect(200);
    return (trail.body as { action: string; actor: { name: string } }[]).map((e) => [e.action, e.actor.name]);
  }

  /** A SKU of the demo catalogue, found as a shopper finds it. */
  async function demoSku(index: number): Promise<string> {
    const search = 'ecomRemainsSearchEngineServiceImpl';
    const list = await t.callBean(search, 'listProducts', [{ size: 10 }]).expect(200);
    const products = (list.body as { items: { id: string }[] }).items;
    const detail = await t.callBean(search, 'getProductDetail', [products[index].id]).expect(200);
    return (detail.body as { skus: { id: string }[] }).skus[0].id;
  }

  describe('apply, approve, offer and set up payouts', () => {
    it('should make an approved applicant a seller with its company profile, offers and a payout account', async () => {
      const applicant = await newUser();
      const live = await TestStompClient.connect(t.url, { token: applicant.token });
      const desk = await TestStompClient.connect(t.url, { token: admin });
      try {
        await live.subscribe(`/topic/seller-onboarding/${applicant.id}`);
        await desk.subscribe('/topic/seller-applications');

        const submitted = await apply(applicant);
        expect(submitted).toMatchObject({
          status: 'PENDING',
          userId: applicant.id,
          company: { name: 'Groene Vingers B.V.', postalCode: '1015 BA', country: 'NL', vatId: 'NL123456789B01' },
        });
        const queued = await desk.next('/topic/seller-applications', (e) => e.id === submitted.id);
        expect(queued).toMatchObject({ event: 'seller-application.submitted' });
        const pending = await onboarding('listSellerApplications', [{ status: 'PENDING' }], admin).expect(200);
        expect((pending.body as { content: ApplicationView[] }).content.map((a) => a.id)).toContain(submitted.id);

        // Not a seller yet: neither a company profile nor a payout account.
        await onboarding('getMyCompanyProfile', [], applicant.token).expect(404);
        await connect('checkMySellerAccountStatus', [], applicant.token).expect(404);

        const approved = (await onboarding('approveSellerApplication', [submitted.id], admin).expect(200))
          .body as ApplicationView;
        expect(approved).toMatchObject({ status: 'APPROVED', decidedBy: 'test-admin' });
        const decision = await live.next(
          `/topic/seller-onboarding/${applicant.id}`,
          (e) => e.id === submitted.id && e.event !== 'seller-application.submitted',
        );
        expect(decision).toMatchObject({ event: 'seller-application.approved', data: { status: 'APPROVED' } });
        await onboarding('approveSellerApplication', [submitted.id], admin).expect(409);
        await onboarding('rejectSellerApplication', [submitted.id, 'too late'], admin).expect(409);
        await onboarding('applyAsSeller', [application()], applicant.token).expect(409);

        const sellerId = approved.sellerId!;
        const profile = await onboarding('getMyCompanyProfile', [], applicant.token).expect(200);
        expect(profile.body).toEqual({
          sellerId,
          profileId: approved.profileId,
          companyName: 'Groene Vingers B.V.',
          street: 'Herengracht 1',
          postalCode: '1015 BA',
          city: 'Amsterdam',
          country: 'NL',
          vatId: 'NL123456789B01',
          email: 'info@groene-vingers.test',
        });
        const publicProfiles = await t
          .callBean('profileSearchServiceImpl', 'searchProfiles', [JSON.stringify({ searchTerm: 'Groene Vingers' })])
          .expect(200);
        expect(JSON.stringify(publicProfiles.body)).not.toContain('NL123456789B01');

        await offerAndSell(applicant, sellerId, approved.profileId!);
        expect(await auditTrail('seller-application', submitted.id)).toEqual([
          ['seller-application.approve', 'test-admin'],
          ['seller-application.submit', applicant.username],
        ]);
        expect(await auditTrail('seller', sellerId)).toEqual([
          ['connect-account.add-external-account', applicant.username],
          ['connect-account.add-external-account', applicant.username],
          ['connect-account.verify', applicant.username],
          ['seller.create', 'test-admin'],
        ]);
      } finally {
        await Promise.all([live.disconnect(), desk.disconnect()]);
      }
    });

    /** The new seller adds a warehouse and offers a SKU, sets up payouts, and its first paid order has a statement. */
    async function offerAndSell(seller: Person, sellerId: string, profileId: string): Promise<void> {
      const warehouse = { street: 'Kade', houseNumber: '1', city: 'Leiden', postalCode: '2311AA', country: 'NL' };
      const added = await t
        .callBean('geoLocationServiceImpl', 'addShippingAddress', [sellerId, warehouse], { token: seller.token })
        .expect(200);
      const warehouseId = (added.body as { id: string }).id;
      const offer = await request(t.url)
        .post('/api/v1/catalogue/offers')
        .set('Authorization', `Bearer ${seller.token}`)
        .send({ skuId: await demoSku(0), price: 1500, currency: 'EUR', stock: [{ warehouseId, quantity: 5 }] })
        .expect(201);
      expect(offer.body).toMatchObject({ sellerId, quantity: 5 });
      const mine = await request(t.url)
        .get('/api/v1/catalogue/sellers/me/offers')
        .set('Authorization', `Bearer ${seller.token}`)
        .expect(200);
      expect(JSON.stringify(mine.body)).toContain((offer.body as { id: string }).id);

      await setUpPayouts(seller);

      const buyer = await newUser();
      await giveAddress(t, buyer.token, 'NL');
      const [order] = await checkOut(t, buyer, [{ sellerSkuId: (offer.body as { id: string }).id, quantity: 2 }]);
      await payOrder(t, buyer, order.id, admin);
      const statement = await t
        .callBean('accountingServiceImpl', 'createPayoutInvoice', [order.id, profileId], { token: admin })
        .expect(200);
      const pdf = await request(t.url)
        .get(`/api/v1/invoices/${(statement.body as { id: string }).id}/pdf`)
        .set('Authorization', `Bearer ${seller.token}`)
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const text = (await pdfPages(pdf.body as Buffer)).join('\n');
      expect(text).toContain('Groene Vingers B.V.');
    }

    const debitCard = { holderName: 'Groene Vingers', number: '4000056655665556', expMonth: 12, expYear: 2099 };

    async function setUpPayouts(seller: Person): Promise<void> {
      expect((await connect('checkMySellerAccountStatus', [], seller.token).expect(200)).body).toBe('NOT_CONNECTED');
      const person = await connect('getMySellerInitialPerson', [], seller.token).expect(200);
      expect(person.body).toMatchObject({
        firstName: 'Groene',
        lastName: 'Vingers B.V.',
        email: 'info@groene-vingers.test',
        address: { line1: 'Herengracht 1', postalCode: '1015 BA', city: 'Amsterdam', country: 'NL' },
        relationship: { representative: true, owner: true },
      });
      await connect(
        'obtainMySellerOnboardingLink',
        ['javascript:alert(1)', 'https://shop.test/done'],
        seller.token,
      ).expect(400);
      const meta = { businessType: 'company', mcc: '5261', country: 'NL', email: 'pay@groene-vingers.test' };
      const verified = await connect(
        'verifyMySellerAccount',
        ['https://shop.test/refresh', 'https://shop.test/done', meta],
        seller.token,
      ).expect(200);
      expect(verified.body).toMatchObject({ status: 'PENDING', requirements: ['tos_acceptance', 'external_account'] });
      const bank = { accountHolderName: 'Groene Vingers B.V.', iban: 'NL91 ABNA 0417 1643 00' };
      expect((await connect('createMySellerBankAccount', [bank], seller.token).expect(200)).body).toBe(true);
      const link = new URL((verified.body as { onboardingUrl: string }).onboardingUrl);
      await request(t.url).post(link.pathname).expect(303).expect('Location', 'https://shop.test/done');
      expect((await connect('checkMySellerAccountStatus', [], seller.token).expect(200)).body).toBe('ENABLED');
      const fresh = await connect(
        'obtainMySellerOnboardingLink',
        ['https://shop.test/r', 'https://shop.test/d'],
        seller.token,
      ).expect(200);
      expect(new URL(fresh.body as string).pathname).toMatch(/^\/api\/v1\/connect\/onboarding\//);
      expect((await connect('createMySellerCardAccount', [debitCard], seller.token).expect(200)).body).toBe(true);
      // The spec's own methods stay ADMIN's.
      await connect('checkConnectAccountStatus', [], seller.token).expect(403);
    }
  });

  describe('rejection', () => {
    it('should tell the applicant why, and let it apply again', async () => {
      const applicant = await newUser();
      const live = await TestStompClient.connect(t.url, { token: applicant.token });
      try {
        await live.subscribe(`/topic/seller-onboarding/${applicant.id}`);
        const submitted = await apply(applicant, { vatId: 'DE123456789', country: 'DE', postalCode: '10115' });
        const rejected = await onboarding(
          'rejectSellerApplication',
          [submitted.id, '  VAT id unknown to VIES '],
          admin,
        ).expect(200);
        expect(rejected.body).toMatchObject({ status: 'REJECTED', reason: 'VAT id unknown to VIES', sellerId: null });
        expect((await auditTrail('seller-application', submitted.id))[0]).toEqual([
          'seller-application.reject',
          'test-admin',
        ]);
        const decision = await live.next(
          `/topic/seller-onboarding/${applicant.id}`,
          (e) => e.id === submitted.id && e.event !== 'seller-application.submitted',
        );
        expect(decision).toMatchObject({
          event: 'seller-application.rejected',
          data: { reason: 'VAT id unknown to VIES' },
        });
        await onboarding('approveSellerApplication', [submitted.id], admin).expect(409);
        const mine = await onboarding('getMySellerApplications', [], applicant.token).expect(200);
        expect((mine.body as ApplicationView[]).map((a) => a.status)).toEqual(['REJECTED']);
        await onboarding('getMyCompanyProfile', [], applicant.token).expect(404);
        await apply(applicant);
      } finally {
        await live.disconnect();
      }
    });

    it.each([
      ['an empty reason', ['   '], 400],
      ['a reason of 501 characters', ['x'.repeat(501)], 400],
      ['no reason', [], 400],
      ['a reason that is no string', [{ text: 'no' }], 400],
    ])('should refuse %s', async (_, reason, status) => {
      const submitted = await apply(await newUser());
      await onboarding('rejectSellerApplication', [submitted.id, ...reason], admin).expect(status);
    });

    it('should answer 404 for an unknown or malformed application', async () => {
      await onboarding('approveSellerApplication', ['0123456789abcdef01234567'], admin).expect(404);
      await onboarding('rejectSellerApplication', ['nope', 'why'], admin).expect(404);
    });
  });

  describe('open onboarding', () => {
    it('should approve at once, decided by the system', async () => {
      const open = await startTestApp({ env: { SELLER_ONBOARDING: 'open' } });
      try {
        const token = open.tokenFor(Role.USER);
        const answer = await open.callBean(ONBOARDING, 'applyAsSeller', [application()], { token }).expect(200);
        expect(answer.body).toMatchObject({ status: 'APPROVED', decidedBy: 'system', sellerId: expect.any(String) });
        const trail = await open
          .callBean('auditServiceImpl', 'getAuditTrail', ['seller-application', answer.body.id], {
            token: open.tokenFor(Role.ADMIN),
          })
          .expect(200);
        expect(trail.body.map((e: { action: string; actor: { name: string } }) => [e.action, e.actor.name])).toEqual([
          ['seller-application.approve', 'system'],
          ['seller-application.submit', 'test-user'],
        ]);
        const profile = await open.callBean(ONBOARDING, 'getMyCompanyProfile', [], { token }).expect(200);
        expect(profile.body).toMatchObject({ companyName: 'Groene Vingers B.V.', vatId: 'NL123456789B01' });
      } finally {
        await open.stop();
      }
    });
  });

  describe('company profile', () => {
    it('should be edited by its seller, the seller following its name and country', async () => {
      const applicant = await newUser();
      const submitted = await apply(applicant);
      const { sellerId } = (await onboarding('approveSellerApplication', [submitted.id], admin).expect(200))
        .body as ApplicationView;
      const moved = application({
        companyName: 'Grüne Finger GmbH',
        country: 'DE',
        vatId: '123456789',
        postalCode: '10115',
        city: 'Berlin',
      });
      const updated = await onboarding('updateMyCompanyProfile', [moved], applicant.token).expect(200);
      expect(updated.body).toMatchObject({ companyName: 'Grüne Finger GmbH', country: 'DE', vatId: 'DE123456789' });
      const profileId = (updated.body as { profileId: string }).profileId;
      expect(await auditTrail('profile', profileId)).toEqual([['company-profile.update', applicant.username]]);
      const sellers = await t.callBean('geoLocationServiceImpl', 'getSellersByCountryCode', ['DE']).expect(200);
      expect(sellers.body).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: sellerId, name: 'Grüne Finger GmbH' })]),
      );
    });

    it.each([
      ['a VAT id of another country', { vatId: 'FR12345678901' }, 'vatId'],
      ['a missing street', { street: undefined }, 'street'],
      ['an operator object as city', { city: { $gt: '' } }, 'city'],
    ])('should refuse %s (400) and keep the profile', async (_, overrides, field) => {
      const applicant = await newUser();
      const submitted = await apply(applicant);
      await onboarding('approveSellerApplication', [submitted.id], admin).expect(200);
      const answer = await onboarding('updateMyCompanyProfile', [application(overrides)], applicant.token).expect(400);
      expect(answer.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: `args[0].${field}` })]),
      );
      const profile = await onboarding('getMyCompanyProfile', [], applicant.token).expect(200);
      expect(profile.body).toMatchObject({ vatId: 'NL123456789B01', street: 'Herengracht 1', city: 'Amsterdam' });
    });

    it('should be refused to a user who acts for no seller (404)', async () => {
      const user = await newUser();
      await onboarding('updateMyCompanyProfile', [application()], user.token).expect(404);
    });
  });

  describe('bad input', () => {
    it.each([
      ['a VAT id of another country', { vatId: 'DE123456789' }, 'vatId'],
      ['a VAT id too short', { vatId: 'NL12345678B01' }, 'vatId'],
      ['a Greek VAT id with GR', { country: 'GR', vatId: 'GR123456789' }, 'vatId'],
      ['an unknown country', { country: 'XX' }, 'country'],
      ['a country name', { country: 'Netherlands' }, 'country'],
      ['a missing company name', { companyName: undefined }, 'companyName'],
      ['a company name of one character', { companyName: 'X' }, 'companyName'],
      ['a postal code with symbols', { postalCode: '10$15' }, 'postalCode'],
      ['an operator object as VAT id', { vatId: { $ne: null } }, 'vatId'],
      ['a malformed e-mail', { email: 'nope' }, 'email'],
    ])('should refuse %s (400, the field named)', async (_, overrides, field) => {
      const user = await newUser();
      const answer = await onboarding('applyAsSeller', [application(overrides)], user.token).expect(400);
      expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', requestId: expect.any(String) });
      expect(answer.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: `args[0].${field}` })]),
      );
    });

    it.each([
      ['listSellerApplications', [{ status: 'MAYBE' }]],
      ['listSellerApplications', [{ size: 500 }]],
      ['listSellerApplications', [{ status: { $ne: null } }]],
    ])('should refuse %s with %j (400)', async (fn, args) => {
      await onboarding(fn, args, admin).expect(400);
    });

    it.each([
      ['verifyMySellerAccount', ['not-a-url', 'https://shop.test/done', { businessType: 'company', mcc: '5261' }]],
      ['createMySellerBankAccount', [{ accountHolderName: 'X Y', iban: 'NL00 0000' }]],
      ['createMySellerCardAccount', [{ holderName: 'X Y', number: '1234', expMonth: 13, expYear: 2030 }]],
    ])('should refuse %s with bad data (400) before anything else', async (fn, args) => {
      await connect(fn, args, (await newUser()).token).expect(400);
    });
  });

  describe('access', () => {
    it.each([
      ['listSellerApplications', [{}]],
      ['approveSellerApplication', ['0123456789abcdef01234567']],
      ['rejectSellerApplication', ['0123456789abcdef01234567', 'no']],
    ])('should refuse %s to a USER (403) and a guest (401)', async (fn, args) => {
      expect((await onboarding(fn, args, t.tokenFor(Role.USER)).expect(403)).body.error).toBe('Access denied');
      await onboarding(fn, args, undefined).expect(401);
    });

    it.each([
      ['applyAsSeller', [application()]],
      ['getMySellerApplications', []],
      ['getMyCompanyProfile', []],
      ['updateMyCompanyProfile', [application()]],
    ])('should refuse %s to a guest (401)', async (fn, args) => {
      await onboarding(fn, args, undefined).expect(401);
    });

    it('should not let an applicant approve itself, nor follow another applicant', async () => {
      const applicant = await newUser();
      const submitted = await apply(applicant);
      await onboarding('approveSellerApplication', [submitted.id], applicant.token).expect(403);
      const stranger = await newUser();
      const client = await TestStompClient.connect(t.url, { token: stranger.token });
      try {
        const replies = '/user/topic/default/json';
        await client.subscribe(replies);
        client.client.subscribe(`/topic/seller-onboarding/${applicant.id}`, () => undefined, { receipt: 'peek' });
        const refusal = await client.next(replies, (reply) => reply.actionId === 'peek');
        expect(refusal).toMatchObject({ error: 'Access denied' });
      } finally {
        await client.disconnect();
      }
      const still = await onboarding('getMySellerApplications', [], applicant.token).expect(200);
      expect((still.body as ApplicationView[])[0]).toMatchObject({ status: 'PENDING' });
    });
  });
});
