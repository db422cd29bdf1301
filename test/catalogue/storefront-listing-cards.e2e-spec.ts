import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Role } from '../../src/common/principal';
import { INDEX_COLLECTION } from '../../src/services/catalogue/storefront-indexer';
import { demoId } from '../../src/seed/demo-id';
import { demoWarehouseId } from '../../src/seed/demo-warehouses';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'ecomRemainsSearchEngineServiceImpl';
const ADMIN_BEAN = 'catalogueAdminServiceImpl';
const SELLER = 'seller.nl';
const REPLIES = '/user/topic/default/json';
/** Content languages asked for: the product's own, a translation (by a regional tag), one with no description. */
const LANGS = ['en', 'de-CH', 'fr'];

/**
 * A listing answers each row from its entry's card (JSON text kept in the storefront index). These compare the answer
 * text, byte for byte (so values, nulls and the order of keys), with the answer of the same store whose entries have
 * no card, as a store indexed before cards: the rows are then made from the entries' fields, as before cards.
 */
describe('listing cards: listProducts answers as before cards', () => {
  let t: TestApp;
  let stomp: TestStompClient;
  let product: { id: string; word: string; attributeId: string; offerId: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    stomp = await TestStompClient.connect(t.url, { token: t.tokenFor(Role.USER) });
    await stomp.subscribe(REPLIES);
    product = await translatedProduct();
  }, 120_000);

  afterAll(async () => {
    await stomp?.disconnect();
    await t?.stop();
  });

  async function admin<T = { id: string }>(fn: string, args: unknown[]): Promise<T> {
    const { body } = await t.callBean(ADMIN_BEAN, fn, args, { token: t.tokenFor(Role.ADMIN) }).expect(200);
    return body as T;
  }

  /**
   * A product whose texts need escaping (quotes, a backslash, `</script>`, an emoji), with an attribute with a unit,
   * an image, a German translation and a French one without a description; one SKU and an offer in stock.
   */
  async function translatedProduct() {
    const word = `zc${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const attribute = await admin('createAttribute', [{ code: word, name: 'Zc "height"', type: 'VALUE', unit: 'cm' }]);
    const created = await admin('createProduct', [
      {
        name: `Fern ${word} "Big" \\ </script> 🌿`,
        description: 'Line one\nline "two"',
        published: true,
        images: ['https://images.example.com/fern.jpg'],
        attributes: [{ attributeId: attribute.id, values: ['12', 'a"b'] }],
      },
    ]);
    await admin('setProductTranslation', [
      created.id,
      { lang: 'de', name: `Farn ${word} „groß“`, description: 'Ein Farn' },
    ]);
    await admin('setProductTranslation', [created.id, { lang: 'fr', name: `Fougère ${word}` }]);
    const sku = await admin('createSku', [{ productId: created.id, code: `C-${word}`, name: 'Plant' }]);
    const stock = [{ warehouseId: String(demoWarehouseId(SELLER)), quantity: 4 }];
    const { body } = await t.http
      .post('/api/v1/catalogue/offers')
      .set('Authorization', sellerToken())
      .send({ skuId: sku.id, price: 750, currency: 'EUR', stock })
      .expect(201);
    return { id: created.id, word, attributeId: attribute.id, offerId: (body as { id: string }).id };
  }

  const sellerToken = () =>
    `Bearer ${t.tokenFor(Role.USER, { username: SELLER, id: String(demoId(`user:${SELLER}`)) })}`;

  /** Listings that show the product: a search, a filter by its value (two reads), and search and filter together. */
  const queries = () => {
    const filter = { attributeId: product.attributeId, values: ['12'] };
    return [
      { q: product.word },
      { filters: [filter] },
      { filters: [filter], sort: 'price', currency: 'EUR' },
      { q: product.word, filters: [filter] },
    ];
  };

  /** Each query's answer text in each language, over REST. */
  async function answers(): Promise<string[]> {
    const texts: string[] = [];
    for (const query of queries()) {
      for (const lang of LANGS) {
        const response = await t.callBean(BEAN, 'listProducts', [query], { lang }).expect(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
        texts.push(response.text);
      }
    }
    return texts;
  }

  const entries = () => t.app.get<Connection>(getConnectionToken()).collection(INDEX_COLLECTION);

  /** The answers from cards (every entry of the product has one), then from the same entries without them. */
  async function withAndWithoutCards(): Promise<{ cards: string[]; fields: string[] }> {
    const stored = await entries()
      .find({ product: new Types.ObjectId(product.id) })
      .toArray();
    expect(stored.filter((entry) => entry.listed).length).toBeGreaterThan(0);
    for (const entry of stored.filter((entry) => entry.listed)) expect(entry.card).toBeDefined();
    const cards = await answers();
    await entries().updateMany({ product: new Types.ObjectId(product.id) }, { $unset: { card: '' } });
    return { cards, fields: await answers() };
  }

  /** The product's row in a search for it, in `lang`. */
  async function row(lang: string): Promise<Record<string, unknown>> {
    const { body } = await t.callBean(BEAN, 'listProducts', [{ q: product.word }], { lang }).expect(200);
    return (body as { items: Record<string, unknown>[] }).items[0];
  }

  it('should answer a translated product from its card as from its fields, in every language', async () => {
    const { cards, fields } = await withAndWithoutCards();
    expect(cards).toEqual(fields);
    const german = JSON.parse(cards[LANGS.indexOf('de-CH')]) as { items: Record<string, unknown>[]; total: number };
    expect(german.total).toBe(1);
    expect(Object.keys(german.items[0])).toEqual([
      'id',
      'slug',
      'name',
      'description',
      'image',
      'attributes',
      'cheapestOffer',
    ]);
    expect(german.items[0]).toEqual({
      id: product.id,
      slug: expect.any(String),
      name: `Farn ${product.word} „groß“`,
      description: 'Ein Farn',
      image: 'https://images.example.com/fern.jpg',
      attributes: [
        { attributeId: product.attributeId, name: 'Zc "height"', type: 'VALUE', unit: 'cm', values: ['12', 'a"b'] },
      ],
      cheapestOffer: expect.objectContaining({ offerId: product.offerId, price: 750, currency: 'EUR', quantity: 4 }),
    });
    // French has no description of its own: the product's shows.
    expect(await row('fr')).toMatchObject({ name: `Fougère ${product.word}`, description: 'Line one\nline "two"' });
  });

  it('should rewrite the cards after an attribute rename and show a stock change, as from the fields', async () => {
    await admin('updateAttribute', [product.attributeId, { name: 'Zc tallness', unit: 'mm' }]);
    const renamed = await withAndWithoutCards();
    expect(renamed.cards).toEqual(renamed.fields);
    expect(await row('en')).toMatchObject({
      attributes: [expect.objectContaining({ name: 'Zc tallness', unit: 'mm' })],
    });
    // A write of the product gives its entries their cards again; then a stock change patches the offer alone.
    await admin('updateProduct', [product.id, { description: 'Line one\nline "two" (restocked)' }]);
    await t.http
      .post(`/api/v1/catalogue/offers/${product.offerId}/stock/${String(demoWarehouseId(SELLER))}/adjust`)
      .set('Authorization', sellerToken())
      .send({ delta: 3 })
      .expect(200);
    const restocked = await withAndWithoutCards();
    expect(restocked.cards).toEqual(restocked.fields);
    expect(await row('en')).toMatchObject({ cheapestOffer: expect.objectContaining({ quantity: 7 }) });
  });

  it('should reply over STOMP with the same listing text as over REST', async () => {
    await admin('updateProduct', [product.id, { description: 'Line one\nline "two" again' }]);
    const query = { q: product.word };
    const rest = (await t.callBean(BEAN, 'listProducts', [query], { lang: 'de' }).expect(200)).text;
    stomp.send(
      '/request/bean',
      { beanId: BEAN, functionName: 'listProducts', args: [query], actionId: 'cards-1' },
      { 'Lang-Context': 'de' },
    );
    const reply = await stomp.nextMessage<{ actionId: string }>(REPLIES, (body) => body.actionId === 'cards-1');
    expect(reply.body).toBe(`{"actionId":"cards-1","status":200,"payload":${rest}}`);
  });
});
