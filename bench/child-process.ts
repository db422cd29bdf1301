import type { ChildProcess } from 'node:child_process';

/** Stops a bench's server process with SIGTERM and waits for it to exit (at once if it already has). */
export async function stopChild(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
