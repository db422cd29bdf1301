import { Role } from '../../src/common/principal';
import { LiveEvent } from '../../src/realtime/event-publisher';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';
import { checkOut, createBuyer } from '../orders/support/order-calls';
import {
  AdminProductBody,
  adminCall,
  AttributeBody,
  CategoryBody,
  CategoryNodeBody,
  expectErrorShape,
  SkuBody,
} from './support/catalogue-admin';
import { authed, createOfferCall, createSellerAccount, MY_OFFERS, OfferBody } from './support/seller-offers';

const SEARCH = 'ecomRemainsSearchEngineServiceImpl';
const TOPIC = '/topic/catalogue';
const MISSING_ID = '0123456789abcdef01234567';

describe('catalogue management (catalogueAdminServiceImpl)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.stop());

  const ok = async <T>(fn: string, args: unknown[]): Promise<T> => (await adminCall(t, fn, args).expect(200)).body as T;
  const category = (name: string, parentId?: string | null, more: object = {}) =>
    ok<CategoryBody>('createCategory', [{ name, parentId, ...more }]);
  const attribute = (code: string, type = 'OPTION', more: object = {}) =>
    ok<AttributeBody>('createAttribute', [{ code, name: code, type, ...more }]);
  const product = (name: string, more: object = {}) => ok<AdminProductBody>('createProduct', [{ name, ...more }]);
  const sku = (productId: string, code: string, more: object = {}) =>
    ok<SkuBody>('createSku', [{ productId, code, name: code, ...more }]);
  const conflict = async (fn: string, args: unknown[]): Promise<string> => {
    const response = await adminCall(t, fn, args).expect(409);
    expectErrorShape(response.body, 409);
    return response.body.message as string;
  };

  describe('an operator puts a new product on sale and takes it off', () => {
    it('should build the tree, attributes, product, SKUs and content, which a seller offers and a guest sees', async () => {
      const guest = await TestStompClient.connect(t.url);
      try {
        await guest.subscribe(TOPIC);
        const plants = await category('Plants');
        const ferns = await category('Ferns', plants.id);
        const form = await attribute('form');
        const height = await attribute('height', 'VALUE', { unit: 'cm' });
        expect(height).toEqual({ id: expect.any(String), code: 'height', name: 'height', type: 'VALUE', unit: 'cm' });

        const draft = await product('Maidenhair Fern', {
          description: 'A delicate fern.',
          categories: [ferns.id],
          attributes: [{ attributeId: height.id, values: ['30'] }],
          translations: [{ lang: 'de', name: 'Frauenhaarfarn', description: 'Ein zarter Farn.' }],
          slug: 'maidenhair-fern',
        });
        expect(draft).toMatchObject({ published: false, categories: [ferns.id], slug: 'maidenhair-fern', skus: [] });
        const small = await sku(draft.id, 'MF-12', { attributes: [{ attributeId: form.id, values: ['Pot 12'] }] });
        const large = await sku(draft.id, 'MF-19', { weightGrams: 1200 });
        const branch = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'category.created' && e.id === ferns.id);
        expect(branch.data).toEqual({ id: ferns.id, name: 'Ferns', parentId: plants.id, position: 0 });
        const unit = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'attribute.created' && e.id === height.id);
        expect(unit.data).toEqual(height);
        const variant = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'sku.created' && e.id === large.id);
        expect(variant.data).toEqual({ id: large.id, productId: draft.id });
        const created = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'product.created');
        expect(created).toMatchObject({ id: draft.id, data: { id: draft.id, published: false } });
        expect(created.data).not.toHaveProperty('name');

        await t.callBean(SEARCH, 'getProductDetail', [draft.id]).expect(404);
        const published = await ok<AdminProductBody>('publishProduct', [draft.id]);
        expect(published.skus.map((s) => s.code)).toEqual(['MF-12', 'MF-19']);
        expect(published.translations).toEqual([
          { lang: 'de', name: 'Frauenhaarfarn', description: 'Ein zarter Farn.' },
        ]);
        const live = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'product.published');
        expect(live).toMatchObject({ id: draft.id, data: { name: 'Maidenhair Fern', published: true } });

        const seller = await createSellerAccount(t);
        const offer = (
          await createOfferCall(
            t,
            {
              skuId: small.id,
              price: 1490,
              currency: 'EUR',
              stock: [{ warehouseId: seller.warehouseId, quantity: 3 }],
            },
            seller.token,
          ).expect(201)
        ).body as OfferBody;
        expect(offer.productId).toBe(draft.id);

        const listing = await t.callBean(SEARCH, 'listProducts', [{ categories: [ferns.id] }]).expect(200);
        expect(listing.body.items).toEqual([
          expect.objectContaining({ id: draft.id, name: 'Maidenhair Fern', cheapestOffer: expect.any(Object) }),
        ]);
        expect(listing.body.items[0].cheapestOffer).toMatchObject({ offerId: offer.id, price: 1490 });
        const detail = await t.callBean(SEARCH, 'getProductDetail', [draft.id]).expect(200);
        expect(detail.body.skus.map((s: { id: string }) => s.id).sort()).toEqual([small.id, large.id].sort());

        await ok('updateProduct', [draft.id, { name: 'Maidenhair Fern XL' }]);
        const renamed = await t.callBean(SEARCH, 'getProductDetail', [draft.id]).expect(200);
        expect(renamed.body.name).toBe('Maidenhair Fern XL');

        const buyer = await createBuyer(t);
        await checkOut(t, buyer, [{ sellerSkuId: offer.id, quantity: 1 }]);
        const skuRefused = await conflict('deleteSku', [small.id]);
        expect(skuRefused).toContain('MF-12');
        expect(skuRefused).toContain(offer.id);
        expect(skuRefused).toContain('open orders hold 1 units');
        expect(await conflict('deleteProduct', [draft.id])).toContain(offer.id);
        expect(await conflict('deleteAttribute', [form.id])).toContain('MF-12');
        expect(await conflict('deleteAttribute', [height.id])).toContain('Maidenhair Fern XL');
        expect(await conflict('deleteCategory', [ferns.id])).toContain('Maidenhair Fern XL');
        expect(await conflict('deleteCategory', [plants.id])).toContain('"Ferns"');

        await ok('unpublishProduct', [draft.id]);
        await t.callBean(SEARCH, 'getProductDetail', [draft.id]).expect(404);
        const hidden = await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'product.unpublished');
        expect(hidden.data).toEqual({ id: draft.id, published: false });

        const removed = await ok<SkuBody>('deleteSku', [large.id]);
        expect(removed.code).toBe('MF-19');
        const after = await ok<AdminProductBody>('getProduct', [draft.id]);
        expect(after.skus.map((s) => s.id)).toEqual([small.id]);
        expect(await guest.next<LiveEvent>(TOPIC, (e) => e.event === 'sku.deleted')).toMatchObject({
          id: large.id,
          data: { id: large.id, productId: draft.id },
        });
      } finally {
        await guest.disconnect();
      }
    });

    it('should delete a product that no seller offers together with its SKUs, then its attribute and category', async () => {
      const shelf = await category('Shelf');
      const colour = await attribute('colour-delete');
      const doomed = await product('Doomed Palm', { categories: [shelf.id], published: true });
      const variant = await sku(doomed.id, 'DP-1', { attributes: [{ attributeId: colour.id, values: ['green'] }] });

      const deleted = await ok<AdminProductBody>('deleteProduct', [doomed.id]);
      expect(deleted.skus.map((s) => s.id)).toEqual([variant.id]);
      await adminCall(t, 'getProduct', [doomed.id]).expect(404);
      await adminCall(t, 'deleteSku', [variant.id]).expect(404);
      await ok('deleteAttribute', [colour.id]);
      await ok('deleteCategory', [shelf.id]);
      const codes = (await ok<AttributeBody[]>('getAttributes', [])).map((a) => a.code);
      expect(codes).not.toContain('colour-delete');
    });
  });

  describe('a delete racing with a new offer', () => {
    it('should never leave an offer of a deleted SKU: one of the two gives way', async () => {
      const seller = await createSellerAccount(t);
      const fern = await product('Racing Fern', { published: true });
      for (let round = 0; round < 12; round++) {
        const variant = await sku(fern.id, `RF-${round}`);
        const offer = { skuId: variant.id, price: 100, currency: 'EUR' };
        const [deleted, offered] = await Promise.all([
          adminCall(t, 'deleteSku', [variant.id]),
          createOfferCall(t, offer, seller.token),
        ]);
        const outcome = [deleted.status, offered.status];
        expect([
          [200, 404],
          [409, 201],
          [409, 404],
        ]).toContainEqual(outcome);
        const skus = (await ok<AdminProductBody>('getProduct', [fern.id])).skus.map((s) => s.id);
        expect(skus.includes(variant.id)).toBe(deleted.status === 409);
        const mine = await authed(t.http.get(`${MY_OFFERS}?limit=200`), seller.token).expect(200);
        const offers = (mine.body.items as OfferBody[]).filter((item) => item.skuId === variant.id);
        expect(offers).toHaveLength(offered.status === 201 ? 1 : 0);
      }
    });
  });

  describe('the audit trail', () => {
    it('should record every change with who made it, the action and what was asked', async () => {
      const operator = await t.createUser({ username: 'catalogue.operator', role: Role.ADMIN });
      const as = async <T>(fn: string, args: unknown[]) =>
        (await adminCall(t, fn, args, operator.token).expect(200)).body as T;
      const trail = async (type: string, id: string) => {
        const response = await t
          .callBean('auditServiceImpl', 'getAuditTrail', [type, id], { token: t.tokenFor(Role.ADMIN) })
          .expect(200);
        return response.body as { action: string; actor: { name: string }; details: Record<string, unknown> }[];
      };
      const actions = async (type: string, id: string) => (await trail(type, id)).map((entry) => entry.action);

      const shelf = await as<CategoryBody>('createCategory', [{ name: 'Audited shelf' }]);
      await as('updateCategory', [shelf.id, { name: 'Audited shelf 2' }]);
      const grade = await as<AttributeBody>('createAttribute', [{ code: 'grade', name: 'Grade', type: 'OPTION' }]);
      await as('updateAttribute', [grade.id, { name: 'Quality grade' }]);
      const fern = await as<AdminProductBody>('createProduct', [{ name: 'Audited fern', categories: [shelf.id] }]);
      await as('setProductTranslation', [fern.id, { lang: 'de', name: 'Geprüfter Farn' }]);
      await as('publishProduct', [fern.id]);
      await as('unpublishProduct', [fern.id]);
      const variant = await as<SkuBody>('createSku', [{ productId: fern.id, code: 'AF-1', name: 'Pot' }]);
      await as('updateSku', [variant.id, { weightGrams: 250 }]);
      await as('deleteProduct', [fern.id]);
      await as('deleteAttribute', [grade.id]);
      await as('deleteCategory', [shelf.id]);

      expect(await actions('category', shelf.id)).toEqual(['category.delete', 'category.update', 'category.create']);
      expect(await actions('attribute', grade.id)).toEqual([
        'attribute.delete',
        'attribute.update',
        'attribute.create',
      ]);
      const productTrail = await trail('product', fern.id);
      expect(productTrail.map((entry) => entry.action)).toEqual([
        'product.delete',
        'product.unpublish',
        'product.publish',
        'product.update',
        'product.create',
      ]);
      expect(productTrail.every((entry) => entry.actor.name === 'catalogue.operator')).toBe(true);
      expect(productTrail[0].details).toEqual({ name: 'Audited fern', skuCodes: ['AF-1'] });
      expect(productTrail[3].details).toEqual({ translation: { lang: 'de', name: 'Geprüfter Farn' } });
      expect(productTrail[4].details).toMatchObject({ name: 'Audited fern', categories: [shelf.id] });
      expect(await actions('sku', variant.id)).toEqual(['sku.update', 'sku.create']);
      expect((await trail('sku', variant.id))[0].details).toEqual({ weightGrams: 250 });
    });

    it('should record nothing for a refused change', async () => {
      const fern = await product('Unchanged fern');
      await adminCall(t, 'updateProduct', [fern.id, { name: '' }]).expect(400);
      await adminCall(t, 'updateProduct', [fern.id, { categories: [MISSING_ID] }]).expect(404);
      const response = await t
        .callBean('auditServiceImpl', 'getAuditTrail', ['product', fern.id], { token: t.tokenFor(Role.ADMIN) })
        .expect(200);
      expect(response.body.map((entry: { action: string }) => entry.action)).toEqual(['product.create']);
    });
  });

  describe('the category tree', () => {
    it('should order siblings by position, move branches and refuse a move under a descendant', async () => {
      const root = await category('Garden');
      const b = await category('Bulbs', root.id);
      const a = await category('Annuals', root.id, { position: 5 });
      const tulips = await category('Tulips', b.id);
      expect(b.position).toBe(0);

      const garden = () =>
        ok<CategoryNodeBody[]>('getCategoryTree', []).then((tree) => tree.find((node) => node.id === root.id)!);
      expect((await garden()).children.map((c) => c.name)).toEqual(['Bulbs', 'Annuals']);
      await ok('updateCategory', [a.id, { position: 0 }]);
      expect((await garden()).children.map((c) => c.name)).toEqual(['Annuals', 'Bulbs']);

      expect(await conflict('updateCategory', [b.id, { parentId: tulips.id }])).toContain('descendants');
      expect(await conflict('updateCategory', [b.id, { parentId: b.id }])).toContain('itself');
      const moved = await ok<CategoryBody>('updateCategory', [tulips.id, { parentId: null }]);
      expect(moved).toMatchObject({ parentId: null, name: 'Tulips' });
      const tree = await ok<CategoryNodeBody[]>('getCategoryTree', []);
      expect(tree.find((node) => node.id === tulips.id)).toMatchObject({ children: [] });
      expect((await garden()).children.find((c) => c.id === b.id)!.children).toEqual([]);
    });

    it('should refuse a sibling of the same name (409) but allow the name elsewhere', async () => {
      const root = await category('Indoor');
      await category('Ferns', root.id);
      expect(await conflict('createCategory', [{ name: 'Ferns', parentId: root.id }])).toContain('Ferns');
      const other = await category('Outdoor');
      const elsewhere = await category('Ferns', other.id);
      expect(await conflict('updateCategory', [elsewhere.id, { parentId: root.id }])).toContain('Ferns');
      await conflict('createCategory', [{ name: 'Indoor' }]);
    });
  });

  describe('product content and duplicates', () => {
    it('should add, replace and remove content per language', async () => {
      const fern = await product('Bird Nest Fern');
      await ok('setProductTranslation', [fern.id, { lang: 'de', name: 'Nestfarn' }]);
      await ok('setProductTranslation', [fern.id, { lang: 'fr', name: 'Fougère nid', description: 'Verte.' }]);
      const replaced = await ok<AdminProductBody>('setProductTranslation', [
        fern.id,
        { lang: 'de', name: 'Nestfarn', description: 'Grün.' },
      ]);
      expect(replaced.translations).toEqual([
        { lang: 'fr', name: 'Fougère nid', description: 'Verte.' },
        { lang: 'de', name: 'Nestfarn', description: 'Grün.' },
      ]);
      const removed = await ok<AdminProductBody>('removeProductTranslation', [fern.id, 'fr']);
      expect(removed.translations.map((tr) => tr.lang)).toEqual(['de']);
      expectErrorShape((await adminCall(t, 'removeProductTranslation', [fern.id, 'fr']).expect(404)).body, 404);
      const twice = [
        { lang: 'de', name: 'A' },
        { lang: 'de', name: 'B' },
      ];
      expectErrorShape((await adminCall(t, 'updateProduct', [fern.id, { translations: twice }]).expect(400)).body, 400);
      const set = await ok<AdminProductBody>('updateProduct', [
        fern.id,
        { translations: [{ lang: 'it', name: 'Felce' }] },
      ]);
      expect(set.translations).toEqual([{ lang: 'it', name: 'Felce', description: '' }]);
    });

    it('should answer 409 for a slug, SKU code or attribute code in use', async () => {
      const first = await product('Slug One', { slug: 'slug-one' });
      expect(await conflict('createProduct', [{ name: 'Slug Two', slug: 'slug-one' }])).toContain('slug-one');
      const second = await product('Slug Two', { slug: 'slug-two' });
      await conflict('updateProduct', [second.id, { slug: 'slug-one' }]);
      await sku(first.id, 'DUP-1');
      expect(await conflict('createSku', [{ productId: second.id, code: 'DUP-1', name: 'x' }])).toContain('DUP-1');
      const other = await sku(second.id, 'DUP-2');
      await conflict('updateSku', [other.id, { code: 'DUP-1' }]);
      await attribute('dup-attr');
      expect(await conflict('createAttribute', [{ code: 'dup-attr', name: 'x', type: 'VALUE' }])).toContain('dup-attr');
    });

    it('should edit SKUs and attributes, keeping what is not given', async () => {
      const fern = await product('Staghorn Fern');
      const size = await attribute('size', 'VALUE', { unit: 'cm' });
      const variant = await sku(fern.id, 'SF-1', { weightGrams: 300 });
      const edited = await ok<SkuBody>('updateSku', [
        variant.id,
        { name: 'Large', attributes: [{ attributeId: size.id, values: ['40', '40'] }] },
      ]);
      expect(edited).toEqual({
        id: variant.id,
        productId: fern.id,
        code: 'SF-1',
        name: 'Large',
        attributes: [{ attributeId: size.id, values: ['40'] }],
        weightGrams: 300,
      });
      const renamed = await ok<AttributeBody>('updateAttribute', [size.id, { name: 'Size' }]);
      expect(renamed).toMatchObject({ code: 'size', name: 'Size', type: 'VALUE', unit: 'cm' });
    });
  });

  describe('finding products', () => {
    it('should search every product, drafts included, by words and fields, with its SKUs', async () => {
      const shelf = await category('Moss shelf');
      const draft = await product('Cushion Moss (draft)', { categories: [shelf.id], slug: 'cushion-moss' });
      const live = await product('Sheet Moss', { published: true, description: 'Carpets of moss' });
      await sku(live.id, 'SM-1');
      const search = (request: object) => ok<{ items: AdminProductBody[]; total: number }>('searchProducts', [request]);

      const both = await search({ searchTerm: 'MOSS' });
      expect(both.items.map((item) => item.name)).toEqual(['Cushion Moss (draft)', 'Sheet Moss']);
      expect(both.total).toBe(2);
      expect(both.items[1].skus.map((s) => s.code)).toEqual(['SM-1']);
      expect((await search({ searchTerm: 'moss', query: { published: false } })).items.map((i) => i.id)).toEqual([
        draft.id,
      ]);
      expect((await search({ query: { categories: shelf.id } })).items.map((i) => i.id)).toEqual([draft.id]);
      expect((await search({ query: { slug: 'cushion-moss' } })).total).toBe(1);
      expect(await search({ searchTerm: '(draft)' })).toMatchObject({ total: 1 });
      expect(await search({ searchTerm: '(a+)+$' })).toEqual({ items: [], total: 0 });
      const paged = await search({ searchTerm: 'moss', limit: 1, page: 1 });
      expect(paged).toMatchObject({ total: 2, items: [{ id: live.id }] });
    });

    it('should refuse operators, unknown fields and bad paging with a 400 (a limit above 200 is taken as 200)', async () => {
      for (const request of [
        { query: { name: { $ne: null } } },
        { query: { $where: 'true' } },
        { query: { passwordHash: 'x' } },
        { limit: 0 },
        { page: -1 },
        { searchTerm: { $regex: '.*' } },
      ]) {
        expectErrorShape((await adminCall(t, 'searchProducts', [request]).expect(400)).body, 400);
      }
      await adminCall(t, 'searchProducts', [{ limit: 100_000 }]).expect(200);
      await adminCall(t, 'searchProducts', [{}], t.tokenFor(Role.USER)).expect(403);
    });
  });

  describe('bad input', () => {
    const BY_ID = [
      'deleteCategory',
      'deleteAttribute',
      'getProduct',
      'publishProduct',
      'unpublishProduct',
      'deleteProduct',
      'deleteSku',
    ];
    const BY_ID_AND_MAP: [string, object][] = [
      ['updateCategory', { name: 'n' }],
      ['updateAttribute', { name: 'n' }],
      ['updateProduct', { name: 'n' }],
      ['setProductTranslation', { lang: 'de', name: 'n' }],
      ['updateSku', { name: 'n' }],
    ];

    it.each(BY_ID)('%s: 400 for a malformed id or an operator object, 404 for an unknown id', async (fn) => {
      expectErrorShape((await adminCall(t, fn, ['not-an-id']).expect(400)).body, 400);
      expectErrorShape((await adminCall(t, fn, [{ $ne: null }]).expect(400)).body, 400);
      expectErrorShape((await adminCall(t, fn, [MISSING_ID]).expect(404)).body, 404);
    });

    it.each(BY_ID_AND_MAP)('%s: 400 for a malformed id or operator object, 404 for an unknown id', async (fn, map) => {
      expectErrorShape((await adminCall(t, fn, ['not-an-id', map]).expect(400)).body, 400);
      expectErrorShape((await adminCall(t, fn, [{ $ne: null }, map]).expect(400)).body, 400);
      expectErrorShape((await adminCall(t, fn, [MISSING_ID, map]).expect(404)).body, 404);
    });

    it('removeProductTranslation: 400 for a malformed id, 404 for an unknown product', async () => {
      expectErrorShape((await adminCall(t, 'removeProductTranslation', ['x', 'de']).expect(400)).body, 400);
      await adminCall(t, 'removeProductTranslation', [{ $ne: null }, 'de']).expect(400);
      await adminCall(t, 'removeProductTranslation', [MISSING_ID, 'de']).expect(404);
    });

    it.each<[string, object, string]>([
      ['createCategory', { name: { $ne: null } }, 'name'],
      ['createCategory', { name: 'x', parentId: { $gt: '' } }, 'parentId'],
      ['createCategory', { name: 'x', position: -1 }, 'position'],
      ['createCategory', { name: '' }, 'name'],
      ['createCategory', { name: '   ' }, 'name'],
      ['createProduct', { name: ' \t ' }, 'name'],
      ['setProductTranslation', { lang: 'de', name: '  ' }, 'name'],
      ['createAttribute', { code: 'blank', name: ' ', type: 'VALUE' }, 'name'],
      ['updateCategory', { position: 1.5 }, 'position'],
      ['createAttribute', { code: 'a b', name: 'x', type: 'OPTION' }, 'code'],
      ['createAttribute', { code: 'ab', name: 'x', type: 'COLOUR' }, 'type'],
      ['createAttribute', { code: { $regex: '.*' }, name: 'x', type: 'OPTION' }, 'code'],
      ['updateAttribute', { name: null }, 'name'],
      ['createProduct', { name: 'x', categories: ['nope'] }, 'categories'],
      ['createProduct', { name: 'x', published: 'yes' }, 'published'],
      ['createProduct', { name: 'x', slug: 'Not A Slug' }, 'slug'],
      ['createProduct', { name: 'x', translations: [{ lang: 'DE', name: 'x' }] }, 'lang'],
      ['createProduct', { name: 'x', attributes: [{ attributeId: { $ne: null }, values: [] }] }, 'attributeId'],
      ['createProduct', { description: 'no name' }, 'name'],
      ['updateProduct', { name: { $ne: null } }, 'name'],
      ['createSku', { productId: { $ne: null }, code: 'x', name: 'x' }, 'productId'],
      ['createSku', { productId: MISSING_ID, code: 'x', name: 'x', weightGrams: 0 }, 'weightGrams'],
      ['updateSku', { code: ['x'] }, 'code'],
      ['setProductTranslation', { lang: 'de' }, 'name'],
    ])('%s %j: 400 naming the field', async (fn, map, field) => {
      const args = fn.startsWith('create') ? [map] : [MISSING_ID, map];
      const response = await adminCall(t, fn, args).expect(400);
      expectErrorShape(response.body, 400);
      expect(JSON.stringify(response.body.details)).toContain(field);
    });

    it.each(['updateCategory', 'updateAttribute', 'updateProduct', 'updateSku'])(
      '%s: 400 for a change of nothing (an empty map, or undeclared fields only)',
      async (fn) => {
        for (const change of [{}, { unknown: 1, published: true }]) {
          const response = await adminCall(t, fn, [MISSING_ID, change]).expect(400);
          expectErrorShape(response.body, 400);
          expect(response.body.message).toBe('Give at least one field to change');
        }
      },
    );

    it('should answer 404 naming an unknown category, attribute, parent or product inside a map', async () => {
      const fern = await product('Lookup Fern');
      const unknown = [
        ['createCategory', [{ name: 'x', parentId: MISSING_ID }]],
        ['createProduct', [{ name: 'x', categories: [MISSING_ID] }]],
        ['updateProduct', [fern.id, { attributes: [{ attributeId: MISSING_ID, values: ['a'] }] }]],
        ['createSku', [{ productId: MISSING_ID, code: 'LF-1', name: 'x' }]],
      ] as const;
      for (const [fn, args] of unknown) {
        const response = await adminCall(t, fn, [...args]).expect(404);
        expectErrorShape(response.body, 404);
        expect(response.body.message).toContain(MISSING_ID);
      }
      await adminCall(t, 'createProduct', [{ name: 'x', countryOfOrigin: 'QQ' }]).expect(400);
    });

    it('should keep every method to ADMINs: 403 for a USER (a seller too), 401 for a guest', async () => {
      const seller = await createSellerAccount(t);
      const calls: [string, unknown[]][] = [
        ['getCategoryTree', []],
        ['createCategory', [{ name: 'Sneaky' }]],
        ['createProduct', [{ name: 'Sneaky' }]],
        ['createSku', [{ productId: MISSING_ID, code: 'S', name: 'S' }]],
        ['deleteProduct', [MISSING_ID]],
      ];
      for (const [fn, args] of calls) {
        expectErrorShape((await adminCall(t, fn, args, t.tokenFor(Role.USER)).expect(403)).body, 403);
        await adminCall(t, fn, args, seller.token).expect(403);
        await t.callBean('catalogueAdminServiceImpl', fn, args).expect(401);
      }
      const names = (await ok<CategoryNodeBody[]>('getCategoryTree', [])).map((node) => node.name);
      expect(names).not.toContain('Sneaky');
    });
  });
});
