import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/bootstrap';
import { ConfigValidationError } from '../../src/config';
import { productionEnvironment } from '../support/production-env';
import { startServerProcess } from '../support/server-process';

const REFUSED_DEFAULTS = [
  'JWT_SECRET',
  'ADMIN_PASSWORD',
  'CARD_PAYMENT_WEBHOOK_SECRET',
  'DELIVERY_WEBHOOK_SECRET',
  'ALT_PAYMENT_WEBHOOK_SECRET',
  'PAYMENT_PROVIDER',
  'DELIVERY_PROVIDER',
  'ALT_PAYMENT_PROVIDER',
];

describe('start-up in production', () => {
  let dataDir: string;
  const base = () => ({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_DB_IN_MEMORY: 'true',
    SEED_DEMO: 'false',
  });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ccb-production-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The variables `createApp` (what `main.ts` runs) refuses with `env`, in the order of its one error. */
  const refused = async (env: Record<string, string>): Promise<string[]> => {
    const error: unknown = await createApp({ ...base(), ...env }).then(
      (app) => app.close().then(() => undefined),
      (failure: unknown) => failure,
    );
    if (!(error instanceof ConfigValidationError)) throw new Error(`expected a refusal, got ${String(error)}`);
    return [...error.message.matchAll(/^ {2}- (\w+): /gm)].map((match) => match[1]);
  };

  it('should refuse the development defaults, naming every variable in one error', async () => {
    expect(await refused({ NODE_ENV: 'production' })).toEqual(REFUSED_DEFAULTS);
  });

  it('should refuse short secrets and an unknown provider', async () => {
    const env = {
      ...productionEnvironment(),
      CARD_PAYMENT_WEBHOOK_SECRET: 'sixteen-chars-ok-but-short',
      DELIVERY_PROVIDER: 'acme-parcels',
    };
    expect((await refused(env)).sort()).toEqual(['CARD_PAYMENT_WEBHOOK_SECRET', 'DELIVERY_PROVIDER']);
  });

  it('should refuse an unnamed sandbox even with every secret set', async () => {
    const env = productionEnvironment();
    delete env.PAYMENT_PROVIDER;
    expect(await refused(env)).toEqual(['PAYMENT_PROVIDER']);
  });

  it('should start the real process with strong secrets and the sandboxes named, logging the providers', async () => {
    const server = startServerProcess({ ...base(), ...productionEnvironment(), LOG_LEVEL: 'info' });
    try {
      expect(await server.logged('Providers in use')).toBe(true);
      const line = server
        .output()
        .stdout.split('\n')
        .find((text) => text.includes('Providers in use'))!;
      const providers = 'card payments card-sandbox, logistics logistics-sandbox, alternative payments sandbox-altpay';
      expect(JSON.parse(line).msg).toBe(`Providers in use: ${providers}`);
    } finally {
      await server.stop();
    }
  }, 360_000);
});
