import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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
 * @param entry the TypeScript file to run instead of `src/main.ts`
 * @param built run the build, `dist/main.js`, as `npm start` does: it starts in a fraction of the time the
 *   transpiling of every source file takes (see {@link requireFreshBuild})
 */
export function startServerProcess(
  env: Record<string, string>,
  { entry = 'src/main.ts', built = false }: { entry?: string; built?: boolean } = {},
): ServerProcess {
  const command = built ? ['dist/main.js'] : ['test/support/run-ts.js', entry];
  const child = spawn(process.execPath, command, {
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

/** @throws Error saying to build when `dist/` is missing or older than a source file of `src/` (`npm test` builds) */
export function requireFreshBuild(): void {
  // Rewritten by every build that compiled something (incremental builds leave unchanged outputs alone).
  const built = statSync(join(ROOT, 'dist', '.tsbuildinfo'), { throwIfNoEntry: false });
  const newest = Math.max(...sourceFiles(join(ROOT, 'src')).map((file) => statSync(file).mtimeMs));
  if (!built || built.mtimeMs < newest) throw new Error('dist/ is missing or older than src/: run npm run build');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}
