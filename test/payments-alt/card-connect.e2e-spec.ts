import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../../src/common/principal';
import { ConnectAccount } from '../../src/services/connect-accounts/connect-account.schema';
import { createProfile } from '../accounting/support/seller-profiles';
import { createAccount } from '../auth/support/accounts';
import { createOffer } from '../orders/support/order-fixtures';
import { insertRawDocuments } from '../support/raw-documents';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'cardConnectServiceMock';
const BACK = { refresh: 'https://shop.example/connect/refresh', return: 'https://shop.example/connect/done' };
const profile = { businessType: 'company', businessStructure: 'private_company', mcc: '5261', country: 'nl' };
const bank = { accountHolderName: 'Nursery BV', iban: 'NL91 ABNA 0417 1643 00', currency: 'eur' };
const debitCard = { holderName: 'Ann Gardener', number: '4000 0566 5566 5556', expMonth: 12, expYear: 2099 };

describe('cardConnectServiceMock', () => {
  let t: TestApp;
  let seller: { token: string; sellerId: string };

  beforeAll(async () => {
    t = await startTestApp();
    const { user, username } = await createAccount(t, { role: Role.ADMIN });
    const id = String(user._id);
    const token = t.tokenFor(Role.ADMIN, { id, username });
    const { sellerId } = await createOffer(t, { sellerUser: { id, token } });
    seller = { token, sellerId };
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[], token = seller.token) => t.callBean(BEAN, fn, args, { token });
  const accounts = () => t.app.get<Model<ConnectAccount>>(getModelToken(ConnectAccount.name));

  describe('access', () => {
    it.each([
      ['checkConnectAccountStatus', []],
      ['deleteAccount', ['0123456789abcdef01234567']],
      ['getInitialPerson', []],
      ['createExternalBankAccount', [bank]],
      ['createExternalCardAccount', [debitCard]],
      ['getBusinessTypes', []],
      ['getBusinessStructures', ['company']],
      ['getMCCs', []],
      ['obtainConnectOnboardingLink', [BACK.refresh, BACK.return]],
      ['verifyAccount', [BACK.refresh, BACK.return, profile]],
    ])('should refuse %s without a token (401) and to a user (403)', async (fn, args) => {
      await t.callBean(BEAN, fn, args).expect(401);
      const response = await call(fn, args, t.tokenFor(Role.USER)).expect(403);
      expect(response.body.error).toBe('Access denied');
    });
  });

  describe('catalogue', () => {
    it('should list business types and the structures of one', async () => {
      const { body: types } = await call('getBusinessTypes', []).expect(200);
      expect(types).toEqual(['individual', 'company', 'non_profit', 'government_entity']);
      const { body: structures } = await call('getBusinessStructures', ['individual']).expect(200);
      expect(structures).toEqual(['sole_proprietorship', 'single_member_llc']);
    });

    it('should refuse an unknown business type', async () => {
      const { body } = await call('getBusinessStructures', ['pirate']).expect(400);
      expect(body.message).toContain('Unknown business type');
      await call('getBusinessStructures', ['__proto__']).expect(400);
    });

    it('should give merchant category codes with their names', async () => {
      const { body } = await call('getMCCs', []).expect(200);
      expect(body['5261']).toBe('Lawn and Garden Supply Stores, Including Nurseries');
      expect(Object.keys(body).length).toBeGreaterThan(20);
    });
  });

  describe('onboarding', () => {
    it('should start NOT_CONNECTED and reach ENABLED through profile, hosted page and payout account', async () => {
      expect((await call('checkConnectAccountStatus', []).expect(200)).body).toBe('NOT_CONNECTED');

      const { body: verified } = await call('verifyAccount', [BACK.refresh, BACK.return, profile]).expect(200);
      expect(verified).toMatchObject({ sellerId: seller.sellerId, status: 'PENDING', country: 'NL', mcc: '5261' });
      expect(verified).toMatchObject({ chargesEnabled: false, payoutsEnabled: false });
      expect(verified.requirements).toEqual(['tos_acceptance', 'external_account']);
      const link = new URL(verified.onboardingUrl as string);
      expect(link.pathname).toMatch(/^\/api\/v1\/connect\/onboarding\/[0-9a-f]{48}$/);

      expect((await t.http.get(link.pathname).expect(200)).text).toContain('Accept and continue');
      const accepted = await t.http.post(link.pathname).expect(303);
      expect(accepted.headers.location).toBe(BACK.return);
      await t.http.post(link.pathname).expect(404);
      expect((await call('checkConnectAccountStatus', []).expect(200)).body).toBe('PENDING');

      expect((await call('createExternalBankAccount', [bank]).expect(200)).body).toBe(true);
      expect((await call('checkConnectAccountStatus', []).expect(200)).body).toBe('ENABLED');
      const { body: done } = await call('verifyAccount', [BACK.refresh, BACK.return, profile]).expect(200);
      expect(done).toMatchObject({ status: 'ENABLED', payoutsEnabled: true, requirements: [], onboardingUrl: null });
      expect(done.externalAccounts).toEqual([
        { type: 'bank_account', last4: '4300', holderName: 'Nursery BV', currency: 'EUR', country: 'NL' },
      ]);
    });

    it('should give a link to the sandbox page and refuse non-http URLs', async () => {
      const { body: url } = await call('obtainConnectOnboardingLink', [BACK.refresh, BACK.return]).expect(200);
      expect(url).toMatch(new RegExp(`^${t.url}/api/v1/connect/onboarding/`));
      await call('obtainConnectOnboardingLink', ['javascript:alert(1)', BACK.return]).expect(400);
      await call('obtainConnectOnboardingLink', [BACK.refresh, 'not a url']).expect(400);
      await call('verifyAccount', ['ftp://x.example/', BACK.return, profile]).expect(400);
    });

    it('should send the owner of an expired link to the refresh URL', async () => {
      const { body: url } = await call('obtainConnectOnboardingLink', [BACK.refresh, BACK.return]).expect(200);
      const { pathname } = new URL(url as string);
      const expired = { $set: { onboardingExpiresAt: new Date(Date.now() - 1000) } };
      await accounts()
        .updateOne({ onboardingToken: pathname.split('/').pop() }, expired)
        .exec();
      expect((await t.http.get(pathname).expect(303)).headers.location).toBe(BACK.refresh);
      await t.http.post(pathname).expect(404);
      await t.http.get('/api/v1/connect/onboarding/unknown').expect(404);
    });

    it("should keep the account of an admin who manages no seller apart from the sellers'", async () => {
      const admin = t.tokenFor(Role.ADMIN);
      expect((await call('checkConnectAccountStatus', [], admin).expect(200)).body).toBe('NOT_CONNECTED');
      const { body } = await call('verifyAccount', [BACK.refresh, BACK.return, profile], admin).expect(200);
      expect(body).toMatchObject({ sellerId: null, status: 'PENDING' });
      expect((await call('checkConnectAccountStatus', []).expect(200)).body).toBe('ENABLED');
    });

    it('should validate the business profile', async () => {
      await call('verifyAccount', [BACK.refresh, BACK.return, { ...profile, mcc: '0000' }]).expect(400);
      const wrongStructure = { ...profile, businessStructure: 'sole_proprietorship' };
      await call('verifyAccount', [BACK.refresh, BACK.return, wrongStructure]).expect(400);
      await call('verifyAccount', [BACK.refresh, BACK.return, { ...profile, businessType: 'pirate' }]).expect(400);
    });
  });

  describe('external accounts', () => {
    it('should refuse a malformed IBAN with the field named', async () => {
      const { body } = await call('createExternalBankAccount', [{ ...bank, iban: 'NL91ABNA0417164301' }]).expect(400);
      expect(JSON.stringify(body.details)).toContain('iban');
      await call('createExternalBankAccount', [{ iban: 'DE89370400440532013000' }]).expect(400);
    });

    it('should accept a debit test card, answer false for other cards and 400 for a Luhn failure', async () => {
      expect((await call('createExternalCardAccount', [debitCard]).expect(200)).body).toBe(true);
      const creditCard = { ...debitCard, number: '4242424242424242' };
      expect((await call('createExternalCardAccount', [creditCard]).expect(200)).body).toBe(false);
      expect((await call('createExternalCardAccount', [{ ...debitCard, expYear: 2001 }]).expect(200)).body).toBe(false);
      const mistyped = { ...debitCard, number: '4000056655665557' };
      const { body } = await call('createExternalCardAccount', [mistyped]).expect(400);
      expect(JSON.stringify(body.details)).toContain('Luhn');
    });
  });

  describe('concurrency', () => {
    it('should create one account when first uses arrive at once, keeping every payout account', async () => {
      const admin = await t.createUser({ username: 'connect-admin', role: Role.ADMIN });
      const first = () => call('createExternalBankAccount', [bank], admin.token);
      const answers = await Promise.all(Array.from({ length: 5 }, first));
      expect(answers.map(({ status, body }) => [status, body])).toEqual(Array(5).fill([200, true]));
      const stored = await accounts()
        .find({ ownerKey: `user:${admin.id}` })
        .lean()
        .exec();
      expect(stored).toHaveLength(1);
      expect(stored[0].externalAccounts).toHaveLength(5);
    });
  });

  describe('getInitialPerson', () => {
    it('should prefill the representative from the logged-in account', async () => {
      const { body } = await call('getInitialPerson', []).expect(200);
      expect(body).toMatchObject({ relationship: { representative: true, owner: true } });
      expect(body.email).toMatch(/@example\.com$/);
    });

    it("should take name, contacts and address from the user's profile", async () => {
      const { user, username } = await createAccount(t, { role: Role.ADMIN });
      await createProfile(t, { userId: String(user._id), displayName: 'Ann van Gardener' });
      const token = t.tokenFor(Role.ADMIN, { id: String(user._id), username });
      const { body } = await call('getInitialPerson', [], token).expect(200);
      expect(body).toEqual({
        firstName: 'Ann',
        lastName: 'van Gardener',
        email: 'billing@fernmoss.example',
        phone: '+31 30 123 4567',
        address: { line1: 'Oudegracht 1', postalCode: '3511 AA', city: 'Utrecht', country: 'NL' },
        relationship: { representative: true, owner: false },
      });
    });

    it('should find the profile also when its owner was stored as text by a raw writer', async () => {
      const { user, username } = await createAccount(t, { role: Role.ADMIN });
      const profile = { userId: String(user._id), type: 'SELLER', displayName: 'Bea Textid', country: 'BE' };
      await insertRawDocuments(t, 'profiles', [profile]);
      const token = t.tokenFor(Role.ADMIN, { id: String(user._id), username });
      const { body } = await call('getInitialPerson', [], token).expect(200);
      expect(body).toMatchObject({ firstName: 'Bea', lastName: 'Textid', address: { country: 'BE' } });
    });
  });

  describe('deleteAccount', () => {
    it('should delete the seller account, then 404', async () => {
      await call('deleteAccount', [seller.sellerId]).expect(200);
      expect((await call('checkConnectAccountStatus', []).expect(200)).body).toBe('NOT_CONNECTED');
      await call('deleteAccount', [seller.sellerId]).expect(404);
    });
  });
});
