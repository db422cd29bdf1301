import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Profile, ProfileType } from '../../src/auth/profiles/profile.schema';
import { startTestApp, TestApp } from '../support/test-app';
import { createAccount } from './support/accounts';

const BEAN = 'profileSearchServiceImpl';

const PROFILES: Partial<Profile>[] = [
  {
    type: ProfileType.SELLER,
    displayName: 'Green Thumb Nursery',
    country: 'NL',
    city: 'Utrecht',
    about: 'Ferns and mosses',
  },
  {
    type: ProfileType.COMPANY,
    displayName: 'Dot.Star* (Plants)',
    country: 'DE',
    city: 'Berlin',
    about: 'Regex-proof name',
  },
  { type: ProfileType.BUYER, displayName: 'DotXStar buyer', country: 'DE', city: 'Hamburg' },
  {
    type: ProfileType.BUYER,
    displayName: 'Anna Gardener',
    country: 'FR',
    city: 'Lyon',
    website: 'https://anna.example.com',
  },
  ...Array.from({ length: 25 }, (_, index) => ({
    type: ProfileType.BUYER,
    displayName: `Bulk buyer ${String(index).padStart(2, '0')}`,
    country: 'US',
  })),
];

const PRIVATE = {
  email: 'secret-mail@example.com',
  phone: '+31 555 0100',
  street: 'Hidden Lane 1',
  postalCode: '1234 AB',
};

describe('profileSearchServiceImpl', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await createAccount(t);
    const profiles = t.app.get<Model<Profile>>(getModelToken(Profile.name));
    await profiles.insertMany(
      PROFILES.map((profile) => ({ ...profile, userId: owner.user._id, contacts: PRIVATE, taxId: 'NL-TAX-999' })),
    );
  });

  afterAll(async () => {
    await t.stop();
  });

  /** As a guest: the bean needs no token. */
  const call = (fn: string, request?: unknown) =>
    t.callBean(BEAN, fn, request === undefined ? [] : [JSON.stringify(request)]);
  const names = (body: { displayName: string }[]) => body.map((profile) => profile.displayName);

  describe('searchProfiles', () => {
    it('should return public fields only, never contacts, owner, tax id or account data', async () => {
      const response = await call('searchProfiles', { searchTerm: 'green' }).expect(200);
      expect(response.body).toEqual([
        {
          id: expect.any(String),
          type: 'SELLER',
          displayName: 'Green Thumb Nursery',
          country: 'NL',
          city: 'Utrecht',
          about: 'Ferns and mosses',
        },
      ]);
      const all = JSON.stringify((await call('searchProfiles', { limit: 200 }).expect(200)).body);
      for (const secret of [...Object.values(PRIVATE), 'NL-TAX-999', 'userId', 'contacts', 'password', 'email']) {
        expect(all).not.toContain(secret);
      }
    });

    it('should match the search term literally and ignoring case (regex metacharacters included)', async () => {
      expect(names((await call('searchProfiles', { searchTerm: 'dot.star*' })).body)).toEqual(['Dot.Star* (Plants)']);
      expect(names((await call('searchProfiles', { searchTerm: 'R* (p' })).body)).toEqual(['Dot.Star* (Plants)']);
      expect((await call('searchProfiles', { searchTerm: '.*' })).body).toEqual([]);
      expect((await call('searchProfiles', { searchTerm: '(' })).body).toHaveLength(1);
      expect((await call('searchProfiles', { searchTerm: '^Anna|Green' })).body).toEqual([]);
    });

    it('should filter by query values (wrapped literally unless ignoreRegexWrap names the field)', async () => {
      expect(names((await call('searchProfiles', { query: { country: 'de' }, sortName: 'displayName' })).body)).toEqual(
        ['Dot.Star* (Plants)', 'DotXStar buyer'],
      );
      expect((await call('searchProfiles', { query: { country: 'de' }, ignoreRegexWrap: ['country'] })).body).toEqual(
        [],
      );
      expect(
        names(
          (
            await call('searchProfiles', {
              query: { country: 'DE', type: 'BUYER' },
              ignoreRegexWrap: ['country', 'type'],
            })
          ).body,
        ),
      ).toEqual(['DotXStar buyer']);
    });

    it('should refuse query operators with 400', async () => {
      for (const query of [{ displayName: { $ne: null } }, { $where: 'true' }, { $or: [{ country: 'DE' }] }]) {
        const response = await call('searchProfiles', { query }).expect(400);
        expect(response.body).toMatchObject({ error: 'Bad Request', status: 400 });
      }
    });

    it('should refuse filtering or sorting on private fields with 400', async () => {
      await call('searchProfiles', { query: { 'contacts.email': 'secret-mail@example.com' } }).expect(400);
      await call('searchProfiles', { query: { taxId: 'NL-TAX-999' } }).expect(400);
      await call('searchProfiles', { sortName: 'contacts.phone' }).expect(400);
    });

    it('should refuse malformed requests with 400', async () => {
      await t.callBean(BEAN, 'searchProfiles', ['{not json']).expect(400);
      await call('searchProfiles', { limit: 'many' }).expect(400);
      await call('searchProfiles', { sortDirection: 'SIDEWAYS' }).expect(400);
    });
  });

  describe('searchProfilesPaged', () => {
    it('should default to 20 per page and answer a Spring page', async () => {
      const response = await call('searchProfilesPaged', { query: { country: 'US' } }).expect(200);
      expect(response.body).toMatchObject({
        totalElements: 25,
        totalPages: 2,
        size: 20,
        number: 0,
        numberOfElements: 20,
        first: true,
        last: false,
        empty: false,
      });
    });

    it('should count pages from 0, let page win over offset, and sort both ways', async () => {
      const request = { query: { country: 'US' }, limit: 10, sortName: 'displayName', sortDirection: 'DESC' };
      const third = (await call('searchProfilesPaged', { ...request, page: 2, offset: 0 }).expect(200)).body;
      expect(third).toMatchObject({ number: 2, numberOfElements: 5, last: true });
      expect(names(third.content)).toEqual([
        'Bulk buyer 04',
        'Bulk buyer 03',
        'Bulk buyer 02',
        'Bulk buyer 01',
        'Bulk buyer 00',
      ]);
      const byOffset = (await call('searchProfilesPaged', { ...request, sortDirection: 'ASC', offset: 10 }).expect(200))
        .body;
      expect(byOffset.number).toBe(1);
      expect(byOffset.content[0].displayName).toBe('Bulk buyer 10');
    });

    it('should cap the page size at 200', async () => {
      expect((await call('searchProfilesPaged', { limit: 5000 }).expect(200)).body).toMatchObject({
        size: 200,
        totalElements: 29,
      });
    });
  });

  describe('getPaginationFilter', () => {
    it('should return the pipeline the search runs, with the term escaped and only public fields projected', async () => {
      const stages = (await call('getPaginationFilter', { searchTerm: 'a.b', limit: 5, page: 1 }).expect(200))
        .body as Record<string, unknown>[];
      expect(stages.map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$skip', '$limit', '$project']);
      expect(JSON.stringify(stages[0])).toContain('"$regex":"a\\\\.b"');
      expect(stages.slice(2, 4)).toEqual([{ $skip: 5 }, { $limit: 5 }]);
      expect(Object.keys(stages[4].$project as object)).not.toContain('contacts');
    });
  });

  describe('getRepository', () => {
    it('should describe the profile repository', async () => {
      expect((await call('getRepository').expect(200)).body).toEqual({
        repository: 'ProfileRepository',
        entity: 'Profile',
        collection: 'profiles',
        count: 29,
      });
    });
  });
});
