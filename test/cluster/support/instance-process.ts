import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

export interface InstanceProcess {
  url: string;
  pid: number;
  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  kill(): Promise<void>;
  /** SIGTERM: the shutdown hooks run, as in a rolling restart. Resolves once the process has exited. */
  terminate(): Promise<void>;
}

/** Starts an instance of the app (with the `slowJob` bean) in a process of its own, on the cluster's environment. */
export async function startInstanceProcess(env: Record<string, string>): Promise<InstanceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-instance-'));
  const child = spawn(process.execPath, ['test/support/run-ts.js', 'test/cluster/support/instance-main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      DATA_DIR: dataDir,
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  exited.then(
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => undefined,
  );
  const url = await listeningUrl(child);
  return {
    url,
    pid: child.pid!,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    terminate: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`The instance process exited (${code}) before listening: ${err}`)));
  });
}
