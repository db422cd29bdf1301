import { findWriters } from './collection-writers';
import { readSources, repositoryRoot, SourceFile } from './model-ownership';

const file = (path: string, text: string): SourceFile => ({ path, text });
const injecting = (model: string, as = 'private readonly m') =>
  `constructor(@InjectModel(${model}.name) ${as}: unknown) {}`;

describe('collection writer finder', () => {
  it('should find write methods on an injected model, as a property or a constructor parameter', () => {
    const repository = file(
      'src/services/orders/order.repository.ts',
      `class R { ${injecting('Order', 'private readonly orders')}\n  a() { return this.orders.findOneAndUpdate({}, {}).lean().exec(); } }`,
    );
    const report = file(
      'src/x/report.ts',
      `class X { constructor(@InjectModel(Order.name) o: unknown) { o.deleteMany({}); } }`,
    );
    const driver = file(
      'src/x/raw.ts',
      `class X { ${injecting('Order')}\n  a() { this.m.collection.bulkWrite([]); } }`,
    );
    expect(findWriters([repository, report, driver])).toEqual(
      new Map([['Order', ['src/services/orders/order.repository.ts', 'src/x/raw.ts', 'src/x/report.ts']]]),
    );
  });

  it('should not count reads, nor writes on something other than an injected model', () => {
    const reader = file(
      'src/x/reader.ts',
      `class X { ${injecting('Order')}\n  a() { this.m.find({}); this.m.aggregate([]); this.other.updateOne({}); x.deleteOne(); } }`,
    );
    const service = file(
      'src/x/service.ts',
      `class X { ${injecting('Order')}\n  a() { return this.admin.save(order); } }`,
    );
    expect(findWriters([reader, service])).toEqual(new Map());
  });

  it('should find documents made or saved, by the model they came from', () => {
    const carts = file(
      'src/x/carts.ts',
      [
        `class X { constructor(@InjectModel(Cart.name) private readonly carts: unknown, @InjectModel(Job.name) private readonly jobs: unknown) {}`,
        `  a() { const cart = (await this.carts.findOne({})) ?? null; return cart.save(); } }`,
      ].join('\n'),
    );
    const made = file('src/x/made.ts', `class X { ${injecting('Job')}\n  a() { return new this.m({}); } }`);
    const unknownOrigin = file('src/x/any.ts', `class X { ${injecting('Sku')}\n  a(doc) { return doc.save(); } }`);
    expect(findWriters([carts, made, unknownOrigin])).toEqual(
      new Map([
        ['Cart', ['src/x/carts.ts']],
        ['Job', ['src/x/made.ts']],
        ['Sku', ['src/x/any.ts']],
      ]),
    );
  });

  it('should count a model handed to a helper that writes with it', () => {
    const seeder = file(
      'src/x/seed.ts',
      `class X { ${injecting('User')}\n  a() { return insertMissing(this.m, []); } }`,
    );
    const exposed = file(
      'src/x/exposed.ts',
      `class X { ${injecting('Site')}\n  a() { this.reg.register('sites', this.m); } }`,
    );
    expect([...findWriters([seeder, exposed]).keys()].sort()).toEqual(['Site', 'User']);
  });
});

describe('the application', () => {
  const writers = findWriters(readSources(repositoryRoot));

  it('should have one writer file for every collection, orders written only by OrderRepository', () => {
    expect(writers.get('Order')).toEqual(['src/services/orders/order.repository.ts']);
    const several = [...writers].filter(([, files]) => files.length > 1);
    expect(Object.fromEntries(several)).toEqual({});
    expect(writers.size).toBeGreaterThan(30);
  });

  it('should have pages, routes, jobs and sites written only by their repositories', () => {
    const repositories = Object.fromEntries(
      ['Page', 'Route', 'Job', 'Site'].map((model) => [model, writers.get(model)]),
    );
    expect(repositories).toEqual({
      Page: ['src/services/content/page.repository.ts'],
      Route: ['src/services/content/route.repository.ts'],
      Job: ['src/services/jobs/job.repository.ts'],
      Site: ['src/sites/site-repository.ts'],
    });
  });

  it('should have the catalogue written by its repositories, sellers by the directory other modules use', () => {
    const catalogue = 'src/services/catalogue';
    expect(writers.get('Attribute')).toEqual([`${catalogue}/attribute.repository.ts`]);
    expect(writers.get('Product')).toEqual([`${catalogue}/product.repository.ts`]);
    expect(writers.get('Sku')).toEqual([`${catalogue}/sku.repository.ts`]);
    expect(writers.get('Seller')).toEqual([`${catalogue}/seller-directory.ts`]);
    expect(writers.get('SellerSku')).toEqual([`${catalogue}/offer.repository.ts`]);
  });
});
