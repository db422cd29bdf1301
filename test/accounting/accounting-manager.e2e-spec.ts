import { ProfileType } from '../../src/auth/profiles/profile.schema';
import { Role } from '../../src/common/principal';
import { createAccount } from '../auth/support/accounts';
import { createBuyer } from '../orders/support/order-calls';
import { insertRawDocuments } from '../support/raw-documents';
import { startTestApp, TestApp } from '../support/test-app';
import { createProfile, updateProfile } from './support/seller-profiles';

const BEAN = 'accountingManagerServiceImpl';

describe('accountingManagerServiceImpl', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t.stop());

  const updateContact = (token?: string) => t.callBean(BEAN, 'updateContact', [], { token });

  it('should answer a guest with null', async () => {
    const response = await updateContact().expect(200);
    expect(response.body).toBeNull();
  });

  it('should refuse an invalid token', async () => {
    await updateContact('not-a-token').expect(401);
  });

  it('should keep a user without a profile as a contact from the account', async () => {
    const buyer = await createBuyer(t);
    const { body } = await updateContact(buyer.token).expect(200);
    const email = `${buyer.username}@example.com`;
    expect(body).toMatchObject({ userId: buyer.id, profileId: null, name: buyer.username, email });
  });

  it('should create the contact from the billing profile and refresh it when the profile changes', async () => {
    const buyer = await createBuyer(t);
    await createProfile(t, { userId: buyer.id, type: ProfileType.BUYER, displayName: 'Ann Buyer' });
    const company = { userId: buyer.id, type: ProfileType.COMPANY, displayName: 'Ann Gardens Ltd' };
    const companyId = await createProfile(t, company);
    const { body: created } = await updateContact(buyer.token).expect(200);
    expect(created).toMatchObject({
      userId: buyer.id,
      profileId: companyId,
      name: 'Ann Gardens Ltd',
      email: 'billing@fernmoss.example',
      address: { street: 'Oudegracht 1', postalCode: '3511 AA', city: 'Utrecht', country: 'NL' },
      taxId: 'NL123456789B01',
    });

    await updateProfile(t, companyId, { city: 'Amsterdam', taxId: null });
    const { body: updated } = await updateContact(buyer.token).expect(200);
    expect(updated).toMatchObject({ id: created.id, address: { city: 'Amsterdam' }, taxId: null });
  });

  it('should find a profile whose owner a raw writer stored as text, not as an ObjectId', async () => {
    const buyer = await createBuyer(t);
    const profile = {
      userId: buyer.id,
      type: ProfileType.SELLER,
      displayName: 'Text Id Nursery',
      city: 'Gent',
      country: 'BE',
      contacts: { email: 'shop@textid.example' },
    };
    const [profileId] = await insertRawDocuments(t, 'profiles', [profile]);
    const { body } = await updateContact(buyer.token).expect(200);
    expect(body).toMatchObject({
      userId: buyer.id,
      profileId,
      name: 'Text Id Nursery',
      email: 'shop@textid.example',
      address: { city: 'Gent', country: 'BE' },
    });
  });

  it('should let an admin update their own contact', async () => {
    const { user, username } = await createAccount(t, { role: Role.ADMIN });
    const token = t.tokenFor(Role.ADMIN, { id: String(user._id), username });
    const { body } = await updateContact(token).expect(200);
    expect(body).toMatchObject({ userId: String(user._id), name: username });
  });
});
