import { getConnectionToken } from '@nestjs/mongoose';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from 'mongoose';
import { Role } from '../../src/common/principal';
import { demoId } from '../../src/seed/demo-id';
import { DemoSeeder } from '../../src/seed/demo-seeder';
import { startTestApp, TestApp } from '../support/test-app';
import { demo } from './support/demo-facets';

const COLLECTIONS = ['attributes', 'products', 'skus', 'seller_skus', 'sellers', 'addresses', 'profiles', 'users'];

describe(DemoSeeder.name, () => {
  let t: TestApp;
  let db: Connection;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    db = t.app.get<Connection>(getConnectionToken());
  });

  afterAll(() => t.stop());

  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        COLLECTIONS.map(async (name) => [name, await db.collection(name).find().sort({ _id: 1 }).toArray()]),
      ),
    );

  it('should load a plant marketplace on first start', async () => {
    expect(await db.collection('products').countDocuments()).toBe(50);
    const sellers = await db.collection('sellers').find().toArray();
    expect(new Set(sellers.map((seller) => seller.country)).size).toBeGreaterThanOrEqual(3);
    for (const seller of sellers) {
      expect(seller).toMatchObject({ userId: expect.any(String), profileId: expect.any(String) });
      expect(seller.shippingAddresses).toHaveLength(1);
    }
    expect(await db.collection('skus').countDocuments()).toBe(demo.skus.length);
    expect(await db.collection('seller_skus').countDocuments({ quantity: { $gt: 0 } })).toBeGreaterThan(50);
    const usernames = (await db.collection('users').find().toArray()).map((user) => user.username);
    expect(usernames).toEqual(expect.arrayContaining(demo.users.map((user) => user.username)));
    const profiles = await db
      .collection('profiles')
      .find({ type: { $in: ['BUYER', 'COMPANY'] } })
      .toArray();
    expect(profiles.map((profile) => profile.displayName)).toEqual(
      expect.arrayContaining(demo.users.map((user) => user.profile.displayName)),
    );
  });

  it.each([
    ['alice', 'Alice', 'DE'],
    ['seller.nl', 'Groene Vingers Kwekerij', 'NL'],
  ])('should give demo user %s the accounting contact of their seeded profile', async (username, name, country) => {
    const id = String(demoId(`user:${username}`));
    const token = t.tokenFor(Role.USER, { username, id });
    const { body } = await t.callBean('accountingManagerServiceImpl', 'updateContact', [], { token }).expect(200);
    expect(body).toMatchObject({ userId: id, profileId: String(demoId(`profile:${username}`)), name });
    expect(body.address).toMatchObject({ country });
  });

  it('should change nothing when run again, even without its marker', async () => {
    const before = await snapshot();
    expect(await t.app.get(DemoSeeder).seed()).toBe(false);
    await db.collection('seed_runs').deleteMany({});
    expect(await t.app.get(DemoSeeder).seed()).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  // How long seeding takes is a benchmark's business (bench/README.md), not a test's: a CPU bound here failed once the
  // storefront index made every catalogue write also refresh its products.
  it('should seed an emptied database again, storefront index included', async () => {
    await Promise.all([...COLLECTIONS, 'seed_runs'].map((name) => db.collection(name).deleteMany({})));
    expect(await t.app.get(DemoSeeder).seed()).toBe(true);
    expect(await db.collection('products').countDocuments()).toBe(50);
    const { body } = await t.callBean('ecomRemainsSearchEngineServiceImpl', 'listProducts', [{ size: 1 }]).expect(200);
    expect(body.total).toBeGreaterThan(0);
  });

  it('should load the data with the seed command, and find it there at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ccb-seed-'));
    try {
      const output = execFileSync(process.execPath, ['test/support/run-ts.js', 'src/seed/seed.main.ts'], {
        cwd: join(__dirname, '..', '..'),
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      // Progress of the load and of the storefront index's one rebuild, then the end.
      const lines = output.trimEnd().split('\n');
      expect(lines.map((line) => line.replace(/[\d.]+ s/, 'N s'))).toEqual([
        'loaded attributes: 7/7 (N s)',
        'loaded products: 50/50 (N s)',
        'loaded skus: 99/99 (N s)',
        'loaded offers: 149/149 (N s)',
        'products: 50/50 (N s)',
        'orphans: 50/50 (N s)',
        'counters: 1/1 (N s)',
        'Demo marketplace loaded in N s',
      ]);
      const next = await startTestApp({ env: { DATA_DIR: dataDir, EMBEDDED_DB_IN_MEMORY: 'false' } });
      try {
        expect(await next.app.get(DemoSeeder).seed()).toBe(false);
        const products = next.app.get<Connection>(getConnectionToken()).collection('products');
        expect(await products.countDocuments()).toBe(50);
      } finally {
        await next.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 360_000);
});
