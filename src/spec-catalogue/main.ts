import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BeanDescriptor, BeanRegistry } from '../bean';
import { createApp } from '../bootstrap';
import { compareWithSpec, formatRegistry, formatReport } from './catalogue-report';
import { parseSpecMethods } from './spec-methods';

/**
 * `npm run catalogue [-- <spec.md>]`: which spec methods the registry holds. Starts the app without listening,
 * on an in-memory database with silent logs, reads the registry and closes the app.
 */
const REPO_ROOT = resolve(__dirname, '..', '..');
const DEFAULT_SPEC = resolve(REPO_ROOT, '..', 'shared', 'spec', 'service-gateway-interface.md');

async function registeredBeans(): Promise<BeanDescriptor[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-catalogue-'));
  const env = {
    DATA_DIR: dataDir,
    EMBEDDED_DB_IN_MEMORY: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
  const app = await createApp(env);
  try {
    await app.init();
    return app.get(BeanRegistry).list();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const specPath = resolve(process.argv[2] ?? DEFAULT_SPEC);
  const beans = await registeredBeans();
  const lines = existsSync(specPath)
    ? formatReport(compareWithSpec(parseSpecMethods(readFileSync(specPath, 'utf8')), beans))
    : [`Spec not found at ${relative(process.cwd(), specPath)}; listing the registry only.`, ...formatRegistry(beans)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`catalogue failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
