import { readdirSync, readFileSync } from 'node:fs';
import { startTestApp } from '../support/test-app';

const onLinux = process.platform === 'linux' ? it : it.skip;

/** Nice value of each thread of this process, by thread id (field 19 of `/proc/self/task/<tid>/stat`). */
function niceByThread(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').flatMap((tid) => {
      try {
        const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        return [[tid, Number(fields[16])] as const];
      } catch {
        return []; // a thread that ended while listed
      }
    }),
  );
}

/** The nice values of the threads an app start added to this process (the embedded database's among them). */
async function addedThreadNices(env: Record<string, string | undefined>): Promise<{ own: number; added: number[] }> {
  const before = niceByThread();
  const app = await startTestApp({ env });
  try {
    const added = [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    return { own: before.get(String(process.pid))!, added };
  } finally {
    await app.stop();
  }
}

describe('the embedded database thread priority (EMBEDDED_DB_LOWER_PRIORITY)', () => {
  onLinux("runs the database's thread 10 nice levels below the app's by default", async () => {
    // The harness runs the thread at the app's priority; undefined leaves the product's default.
    const { own, added } = await addedThreadNices({ EMBEDDED_DB_LOWER_PRIORITY: undefined });
    expect(added).toContain(Math.min(19, own + 10));
  });

  onLinux("keeps the app's priority when false, as the seed and reindex commands set it", async () => {
    const { own, added } = await addedThreadNices({ EMBEDDED_DB_LOWER_PRIORITY: 'false' });
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((nice) => nice === own)).toBe(true);
  });

  onLinux(
    "keeps the app's priority in the tests' apps, where it would only starve the database under load",
    async () => {
      const { own, added } = await addedThreadNices({});
      expect(added.length).toBeGreaterThan(0);
      expect(added.every((nice) => nice === own)).toBe(true);
    },
  );
});
