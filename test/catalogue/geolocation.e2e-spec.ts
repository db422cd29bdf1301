import countries from 'i18n-iso-countries';
import { Role } from '../../src/common/principal';
import { buildDemoCatalogue } from '../../src/seed/demo-data';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'geoLocationServiceImpl';
const demo = buildDemoCatalogue();
const sellerOf = (country: string) => demo.sellers.find((seller) => seller.country === country)!;
const address = { street: 'Hauptstraße', houseNumber: '5', city: 'Berlin', postalCode: '10115', country: 'DE' };
const MISSING_ID = '0123456789abcdef01234567';
const COUNTRY_COUNT = Object.keys(countries.getAlpha2Codes()).length;

describe('geoLocationServiceImpl', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let other: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    admin = t.tokenFor(Role.ADMIN);
    ({ token: user } = await t.createUser({ username: 'geo-user', role: Role.USER }));
    ({ token: other } = await t.createUser({ username: 'geo-other', role: Role.USER }));
  });

  afterAll(() => t.stop());

  const call = (fn: string, args: unknown[], options: { token?: string; lang?: string } = {}) =>
    t.callBean(BEAN, fn, args, options);

  describe('countries', () => {
    it('should list every ISO country with names in the Lang-Context language', async () => {
      const en = await call('getCountries', []).expect(200);
      const de = await call('getCountries', [], { lang: 'de' }).expect(200);
      expect(en.body).toHaveLength(COUNTRY_COUNT);
      expect(en.body.find((c: { code: string }) => c.code === 'DE').name).toBe('Germany');
      expect(de.body.find((c: { code: string }) => c.code === 'DE').name).toBe('Deutschland');
    });

    it('should find a country by alpha-2 or alpha-3 code, localized, and 404 an unknown one', async () => {
      const fr = await call('getCountryByCode', ['jp'], { lang: 'fr' }).expect(200);
      expect(fr.body).toEqual({ id: 'JP', code: 'JP', alpha3: 'JPN', numeric: '392', name: 'Japon' });
      expect((await call('getCountryByCode', ['ESP'], { lang: 'es' }).expect(200)).body.name).toBe('España');
      await call('getCountryByCode', ['XQ']).expect(404);
      await call('getCountryByCode', ['']).expect(400);
      await call('getCountryByCode', [42]).expect(400);
    });

    it('should resolve a code value from any ISO form or a localized name', async () => {
      expect((await call('getCountryCodeValue', ['NLD']).expect(200)).body).toBe('NL');
      expect((await call('getCountryCodeValue', ['276']).expect(200)).body).toBe('DE');
      expect((await call('getCountryCodeValue', ['Allemagne'], { lang: 'fr' }).expect(200)).body).toBe('DE');
      await call('getCountryCodeValue', ['Atlantis']).expect(404);
      await call('getCountryCodeValue', [' ']).expect(400);
      await call('getCountries', ['extra']).expect(400);
    });

    it('should search countries literally in the request language, paged', async () => {
      const found = await call('searchCountries', ['{"searchTerm":"reich"}'], { lang: 'de' }).expect(200);
      expect(found.body.map((c: { code: string }) => c.code).sort()).toEqual(['AT', 'FR', 'GB']);
      const page = await call('searchCountriesPaged', ['{"limit":5,"page":1,"sortName":"code"}']).expect(200);
      expect(page.body).toMatchObject({ totalElements: COUNTRY_COUNT, size: 5, number: 1, first: false });
      const secondFive = Object.keys(countries.getAlpha2Codes()).sort().slice(5, 10);
      expect(page.body.content.map((c: { code: string }) => c.code)).toEqual(secondFive);
      const none = await call('searchCountries', ['{"searchTerm":".*"}']).expect(200);
      expect(none.body).toEqual([]);
    });

    it('should answer a repeated search in the language of each request, not of the first', async () => {
      const request = ['{"query":{"code":"DE"}}'];
      const names = async (lang: string) => {
        const [list, page] = await Promise.all([
          call('searchCountries', request, { lang }).expect(200),
          call('searchCountriesPaged', request, { lang }).expect(200),
        ]);
        return [list.body[0].name, page.body.content[0].name];
      };
      for (let round = 0; round < 2; round++) {
        expect(await names('de')).toEqual(['Deutschland', 'Deutschland']);
        expect(await names('fr')).toEqual(['Allemagne', 'Allemagne']);
        expect(await names('en')).toEqual(['Germany', 'Germany']);
      }
    });

    it("should sort searches by the alphabet of the request's language, not by code points", async () => {
      const names = async (request: object, lang: string): Promise<string[]> => {
        const { body } = await call('searchCountries', [JSON.stringify(request)], { lang }).expect(200);
        return body.map((country: { name: string }) => country.name);
      };
      const all = async (lang: string) => [
        ...(await names({ limit: 200, page: 0 }, lang)),
        ...(await names({ limit: 200, page: 1 }, lang)),
      ];
      const en = await all('en');
      expect(en).toHaveLength(COUNTRY_COUNT);
      expect(en.slice(0, 3)).toEqual(['Afghanistan', 'Åland Islands', 'Albania']);
      expect(en).toEqual([...en].sort(new Intl.Collator('en').compare));
      const de = await all('de');
      expect(de.slice(0, 4)).toEqual(['Afghanistan', 'Ägypten', 'Åland', 'Albanien']);
      expect(de).toEqual([...de].sort(new Intl.Collator('de').compare));
      const descending = await names({ limit: 3, sortName: 'name', sortDirection: 'DESC' }, 'de');
      expect(descending).toEqual([...de].reverse().slice(0, 3));
      // Swedish names are not shipped: English names in English order.
      expect(await all('sv')).toEqual(en);

      const { body: page } = await call('searchCountriesPaged', ['{"limit":3,"page":1}'], { lang: 'de' }).expect(200);
      expect(page.content.map((country: { name: string }) => country.name)).toEqual(de.slice(3, 6));
    });

    it('should refuse operators and malformed search requests', async () => {
      await call('searchCountries', ['{"query":{"name":{"$ne":null}}}']).expect(400);
      await call('searchCountriesPaged', ['{not json']).expect(400);
      await call('searchCountries', ['{"query":{"passwordHash":"x"}}']).expect(400);
    });

    it('should return the aggregation pipeline the search runs', async () => {
      const { body } = await call('getPaginationFilter', ['{"searchTerm":"a+b","limit":3}']).expect(200);
      const stages = body.map((stage: object) => Object.keys(stage)[0]);
      expect(stages).toEqual(['$project', '$match', '$sort', '$skip', '$limit']);
      expect(JSON.stringify(body[1])).toContain('a\\\\+b');
      await call('getPaginationFilter', ['{"limit":"all"}']).expect(400);
    });
  });

  describe('sellers', () => {
    const jp = sellerOf('JP');

    it("should give a seller's country and its localized name", async () => {
      const { body } = await call('getCountryBySellerId', [String(jp._id)], { lang: 'de' }).expect(200);
      expect(body).toMatchObject({ code: 'JP', name: 'Japan' });
      const name = await call('getCountryNameBySellerId', [String(jp._id)], { lang: 'es' }).expect(200);
      expect(name.body).toBe('Japón');
      await call('getCountryBySellerId', [MISSING_ID]).expect(404);
      await call('getCountryNameBySellerId', ['not-an-id']).expect(400);
    });

    it('should list the sellers of a country without their accounts', async () => {
      const { body } = await call('getSellersByCountryCode', ['USA']).expect(200);
      expect(body).toEqual([expect.objectContaining({ id: String(sellerOf('US')._id), name: sellerOf('US').name })]);
      expect(body[0].userId).toBeUndefined();
      expect((await call('getSellersByCountryCode', ['DE']).expect(200)).body).toEqual([]);
      await call('getSellersByCountryCode', ['ZZZ']).expect(404);
      await call('getSellersByCountryCode', ['']).expect(400);
    });
  });

  describe('addresses', () => {
    it('should create, read and save an own address, and refuse guests and other users', async () => {
      const created = await call('createAddress', [address], { token: user }).expect(200);
      expect(created.body).toMatchObject({ ...address, fallIntoObjects: [] });
      const id = created.body.id;
      await call('createAddress', [address]).expect(401);
      await call('getAddressById', [id], { token: other }).expect(403);
      expect((await call('getAddressById', [id], { token: admin }).expect(200)).body.city).toBe('Berlin');
      const saved = await call('saveAddress', [{ ...address, id, city: 'Potsdam', country: 'deu' }], { token: user });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ id, city: 'Potsdam', country: 'DE' });
      await call('saveAddress', [{ ...address, id }], { token: other }).expect(403);
      await call('saveAddress', [{ ...address, id: MISSING_ID }], { token: user }).expect(404);
    });

    it('should validate the address map', async () => {
      await call('createAddress', [{ city: 'Berlin' }], { token: user }).expect(400);
      await call('createAddress', [{ ...address, country: 'Narnia' }], { token: user }).expect(400);
      await call('createAddress', [{ ...address, id: MISSING_ID }], { token: user }).expect(400);
      await call('createAddress', ['Berlin'], { token: user }).expect(400);
      await call('getAddressById', ['nope'], { token: user }).expect(400);
      await call('getAddressById', [MISSING_ID], { token: user }).expect(404);
    });

    it('should search own addresses literally within a window', async () => {
      const { token: mine } = await t.createUser({ username: 'searcher', role: Role.USER });
      for (const city of ['Köln', 'Bonn', 'K.ln']) {
        await call('createAddress', [{ ...address, city }], { token: mine }).expect(200);
      }
      const found = await call('searchAddresses', ['k.ln', '0', '10'], { token: mine }).expect(200);
      expect(found.body.map((a: { city: string }) => a.city)).toEqual(['K.ln']);
      expect((await call('searchAddresses', ['', '1', '3'], { token: mine }).expect(200)).body).toHaveLength(2);
      expect((await call('searchAddresses', ['Bonn', '0', '10'], { token: other }).expect(200)).body).toEqual([]);
      await call('searchAddresses', ['', 'a', '3'], { token: mine }).expect(400);
      await call('searchAddresses', ['', '5', '1'], { token: mine }).expect(400);
      await call('searchAddresses', ['', '0', '10']).expect(401);
    });

    it('should remove addresses only of their owner', async () => {
      const a = (await call('createAddress', [address], { token: user })).body.id;
      const b = (await call('createAddress', [address], { token: user })).body.id;
      const c = (await call('createAddress', [address], { token: other })).body.id;
      await call('removeAddressesByIds', [[a, c]], { token: user }).expect(403);
      await call('removeAddressesByIds', [[a, b, MISSING_ID]], { token: user }).expect(200);
      await call('getAddressById', [a], { token: user }).expect(404);
      await call('removeAddressesByIds', [['bad']], { token: user }).expect(400);
      await call('removeAddressAndClean', [c], { token: user }).expect(403);
      await call('removeAddressAndClean', [c], { token: other }).expect(200);
      await call('removeAddressAndClean', [c], { token: other }).expect(404);
    });

    it('should report the address repository to an ADMIN only', async () => {
      const { body } = await call('getAddressRepository', [], { token: admin }).expect(200);
      expect(body).toMatchObject({ collection: 'addresses', entity: 'Address' });
      expect(body.count).toBeGreaterThanOrEqual(demo.sellers.length);
      await call('getAddressRepository', [], { token: user }).expect(403);
      await call('getAddressRepository', []).expect(401);
      await call('getAddressRepository', ['x'], { token: admin }).expect(400);
    });
  });

  describe('shipping addresses', () => {
    const nl = sellerOf('NL');
    const sellerToken = () => t.tokenFor(Role.ADMIN);

    it("should list a seller's shipping addresses for anyone", async () => {
      const { body } = await call('getShippingAddresses', [String(nl._id)]).expect(200);
      expect(body).toEqual([expect.objectContaining({ city: 'Boskoop', country: 'NL' })]);
      expect((await call('getAddressById', [body[0].id], { token: other }).expect(200)).body.city).toBe('Boskoop');
      await call('getShippingAddresses', [MISSING_ID]).expect(404);
      await call('getShippingAddresses', ['seller-1']).expect(400);
    });

    it("should let only the seller's own user or an ADMIN change them, and clean every reference", async () => {
      const seller = String(nl._id);
      await call('addShippingAddress', [seller, address], { token: user }).expect(403);
      await call('addShippingAddress', [seller, address]).expect(401);
      await call('addShippingAddress', [MISSING_ID, address], { token: admin }).expect(404);
      await call('addShippingAddress', [seller, { city: 'Leiden' }], { token: admin }).expect(400);
      const added = await call('addShippingAddress', [seller, address], { token: sellerToken() }).expect(200);
      const id = added.body.id;
      expect((await call('getShippingAddresses', [seller])).body.map((a: { id: string }) => a.id)).toContain(id);
      await call('removeAddressAndClean', [id], { token: admin }).expect(200);
      expect((await call('getShippingAddresses', [seller])).body.map((a: { id: string }) => a.id)).not.toContain(id);
    });

    it('should unlink with removeAddressFromSeller and delete with removeShippingAddress', async () => {
      const seller = String(nl._id);
      const kept = (await call('addShippingAddress', [seller, address], { token: admin })).body.id;
      const dropped = (await call('addShippingAddress', [seller, address], { token: admin })).body.id;
      await call('removeAddressFromSeller', [seller, kept], { token: user }).expect(403);
      await call('removeAddressFromSeller', [seller, kept], { token: admin }).expect(200);
      await call('getAddressById', [kept], { token: admin }).expect(200);
      await call('removeShippingAddress', [seller, dropped], { token: admin }).expect(200);
      await call('getAddressById', [dropped], { token: admin }).expect(404);
      await call('removeShippingAddress', [seller, dropped], { token: admin }).expect(404);
      await call('removeAddressFromSeller', [MISSING_ID, kept], { token: admin }).expect(404);
    });
  });
});
