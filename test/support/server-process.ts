import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything written so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves true once stdout has a line containing `text`, false if the process ends first. */
  logged(text: string): Promise<boolean>;
  /** Ends the process if it still runs. */
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` (or another entry that starts the app) as a real process with exactly `env` and PATH: the
 * caller's environment does not leak in.
 */
export function startServerProcess(env: Record<string, string>, entry = 'src/main.ts'): ServerProcess {
  const child = spawn(process.execPath, ['test/support/run-ts.js', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((waiter) => waiter());
  child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), wake()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (resolve(code), wake())));
  const running = () => child.exitCode === null && child.signalCode === null;

  const logged = async (text: string): Promise<boolean> => {
    while (!stdout.includes(text)) {
      if (!running()) return false;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return true;
  };
  const stop = async () => {
    if (running()) child.kill('SIGTERM');
    await exited;
  };
  return { child, output: () => ({ stdout, stderr }), exited, logged, stop };
}
