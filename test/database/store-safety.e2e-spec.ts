import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startServerProcess, type ServerProcess } from '../support/server-process';

const DB_TOOL = join(__dirname, '..', '..', 'packages', 'embedded-mongo', 'dist', 'db-tool.js');

/** `npm run db:<action>` without its build step (the package is built before the tests). */
function dbTool(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DB_TOOL, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/**
 * Leases a running instance takes and gives back for its scheduled tasks: how many exist depends on the moment, not
 * on what the store holds.
 */
const RUNTIME_STATE = new Set(['lease_locks']);

/** Documents per data collection of the app's database, read through the URI the app logs for its embedded server. */
async function countsOf(server: ServerProcess): Promise<Record<string, number>> {
  const uri = /Embedded database listening on (mongodb:\/\/\S+?) /.exec(server.output().stdout)?.[1];
  const client = await MongoClient.connect(`${uri}/content-commerce`);
  try {
    const db = client.db();
    const counts: Record<string, number> = {};
    for (const { name } of await db.listCollections().toArray())
      if (!RUNTIME_STATE.has(name)) counts[name] = await db.collection(name).countDocuments();
    return counts;
  } finally {
    await client.close();
  }
}

describe('the app on a damaged store', () => {
  let dataDir: string;
  const env = () => ({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });

  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'ccb-store-safety-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with the message and exit code 1 (no signal), and starts again from a restored backup', async () => {
    const dbPath = join(dataDir, 'db');
    const backupPath = join(dataDir, 'backup');
    const first = startServerProcess(env());
    let before: Record<string, number>;
    try {
      expect(await first.logged('Listening on')).toBe(true);
      before = await countsOf(first); // the demo data the app seeded into its new store
      const backup = await dbTool(['backup', '--dbpath', dbPath, '--to', backupPath]);
      expect(backup.stdout).toMatch(/^OK: backup of .* \(online\)/);
    } finally {
      await first.stop();
    }
    expect(Object.values(before).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);

    const data = readFileSync(join(dbPath, 'data.mdb'));
    writeFileSync(join(dbPath, 'data.mdb'), data.fill(0, 0, 8192));
    const refused = startServerProcess(env());
    expect(await refused.exited).toBe(1);
    expect(refused.child.signalCode).toBeNull();
    const { stderr } = refused.output();
    expect(stderr).toContain(`embedded database store ${dbPath} is damaged: ${dbPath}/data.mdb: meta page 0`);
    expect(stderr).toContain(`npm run db:restore -- --from <backup> --dbpath ${dbPath}`);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace

    const restore = await dbTool(['restore', '--dbpath', dbPath, '--from', backupPath]);
    expect(restore.code).toBe(0);
    const restored = startServerProcess(env());
    try {
      expect(await restored.logged('Listening on')).toBe(true);
      expect(await countsOf(restored)).toEqual(before);
    } finally {
      await restored.stop();
    }
  }, 720_000);
});
