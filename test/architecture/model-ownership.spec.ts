import { findViolations, ownerOf, readSources, repositoryRoot, SourceFile } from './model-ownership';

const sellerSchema: SourceFile = {
  path: 'src/services/catalogue/seller.schema.ts',
  text: `@Schema({ collection: 'sellers' })\nexport class Seller {}\nexport const SellerSchema = 1;`,
};
const pageSchema: SourceFile = {
  path: 'src/services/content/page.schema.ts',
  text: `@Schema()\nexport class Page {}`,
};

const file = (path: string, text: string): SourceFile => ({ path, text });

describe('model ownership checker', () => {
  it('should name the owning module of a path', () => {
    expect(ownerOf('src/services/orders/order.repository.ts')).toBe('services/orders');
    expect(ownerOf('src/auth/profiles/profile.schema.ts')).toBe('auth');
    expect(ownerOf('src/seed/demo-seeder.ts')).toBe('seed');
    expect(ownerOf('src/app.module.ts')).toBe('app');
  });

  it("should report an import of another module's schema, types only included", () => {
    const orders = file(
      'src/services/orders/order-placement.ts',
      `import type { Seller } from '../catalogue/seller.schema';\nexport { Sku } from '../catalogue/sku.schema';`,
    );
    const found = findViolations([sellerSchema, orders]);
    expect(found).toEqual([
      expect.objectContaining({ file: orders.path, line: 1, rule: 'schema-import' }),
      expect.objectContaining({ file: orders.path, line: 2, rule: 'schema-import' }),
    ]);
    expect(found[0].detail).toBe("services/orders imports services/catalogue's ../catalogue/seller.schema");
  });

  it("should report another module's model injected or registered, however it was imported", () => {
    const geo = file(
      'src/services/geolocation/addresses.ts',
      [
        `import { Seller } from '../catalogue';`,
        `class A { constructor(@InjectModel(Seller.name) private readonly s: Model<Seller>) {} }`,
        `const m = MongooseModule.forFeature([{ name: Seller.name, schema: SellerSchema }]);`,
        `class B { constructor(@InjectModel('Seller') s: unknown) {} }`,
      ].join('\n'),
    );
    const found = findViolations([sellerSchema, geo]);
    expect(found.map((v) => [v.line, v.rule])).toEqual([
      [2, 'foreign-model'],
      [3, 'foreign-model'],
      [4, 'foreign-model'],
    ]);
    expect(found[1].detail).toBe("services/geolocation registers services/catalogue's model Seller");
  });

  it('should accept the owner itself and the content modules sharing the content store', () => {
    const own = file(
      'src/services/catalogue/sellers.ts',
      `import { Seller } from './seller.schema';\nclass S { constructor(@InjectModel(Seller.name) s: unknown) {} }`,
    );
    const pages = file(
      'src/services/pages/page-copier.ts',
      `import { Page } from '../content/page.schema';\nclass P { constructor(@InjectModel(Page.name) p: unknown) {} }`,
    );
    expect(findViolations([sellerSchema, pageSchema, own, pages])).toEqual([]);
  });

  it('should still refuse the content store to a module that is not a content module', () => {
    const orders = file('src/services/orders/x.ts', `class X { constructor(@InjectModel(Page.name) p: unknown) {} }`);
    expect(findViolations([pageSchema, orders])).toHaveLength(1);
  });

  it('should find no module using another module’s models in src', () => {
    const sources = readSources(repositoryRoot);
    expect(sources.filter((source) => source.path.endsWith('.schema.ts')).length).toBeGreaterThan(20);
    const found = findViolations(sources).map((v) => `${v.file}:${v.line} ${v.detail}`);
    expect(found).toEqual([]);
  });
});
