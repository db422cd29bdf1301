import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BeanDescriptor, BeanRegistry } from '../bean';
import { createApp } from '../bootstrap';
import { compareWithSpec, formatRegistry, formatReport } from './catalogue-report';
import { parseSpecMethods, SpecMethod } from './spec-methods';

/**
 * `npm run catalogue [-- <spec.md>]`: which spec methods the registry holds. Starts the app without listening,
 * on an in-memory database with silent logs, reads the registry and closes the app. Without an argument it compares
 * with the spec's method list kept in the repository (`spec-method-list.json`), so that it works in any clone.
 */
const SPEC_METHODS_FILE = join(__dirname, 'spec-method-list.json');

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
  const specPath = process.argv[2] === undefined ? undefined : resolve(process.argv[2]);
  const beans = await registeredBeans();
  const lines =
    specPath && !existsSync(specPath)
      ? [`Spec not found at ${relative(process.cwd(), specPath)}; listing the registry only.`, ...formatRegistry(beans)]
      : formatReport(compareWithSpec(specMethods(specPath), beans));
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The methods of the spec document given, else those kept in the repository. */
function specMethods(specPath?: string): SpecMethod[] {
  if (specPath) return parseSpecMethods(readFileSync(specPath, 'utf8'));
  return JSON.parse(readFileSync(SPEC_METHODS_FILE, 'utf8')) as SpecMethod[];
}

main().catch((error: unknown) => {
  process.stderr.write(`catalogue failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
