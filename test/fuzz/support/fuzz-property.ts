import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';

/**
 * Cases per property: `FUZZ_RUNS` (what `npm run fuzz` sets), else the property's own default, chosen so that all
 * fuzz properties together add about a minute to `npm test` on a two-core machine.
 */
export function fuzzRuns(defaultRuns: number): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : defaultRuns;
}

/** A Jest timeout for `runs` cases that each may take up to `msPerCase` on a busy machine (at least a minute). */
export function fuzzTimeout(runs: number, msPerCase: number): number {
  const limitSeconds = Number(process.env.FUZZ_TIME_LIMIT_S);
  if (limitSeconds > 0) return (limitSeconds + 120) * 1000;
  return Math.max(60_000, runs * msPerCase);
}

/**
 * Checks `property` like `fc.assert` (the same failure report, with seed and shrunk counterexample), with `numRuns`
 * cases and `examples` (the counterexamples found before) first, drawn from {@link seedOf}. Two knobs for long runs:
 * `FUZZ_TIME_LIMIT_S` stops a property after that many seconds without failing it, and `FUZZ_REPORT` names a file
 * that gets one JSON line per property with the cases actually run and the time taken.
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  numRuns: number,
  examples: Ts[] = [],
): Promise<void> {
  const limitSeconds = Number(process.env.FUZZ_TIME_LIMIT_S);
  const started = Date.now();
  const details = await fc.check(property, {
    numRuns,
    examples,
    seed: seedOf(name),
    ...(limitSeconds > 0 ? { interruptAfterTimeLimit: limitSeconds * 1000, markInterruptAsFailure: false } : {}),
  });
  report(name, details, Date.now() - started);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? `\nCause: ${details.errorInstance.message}` : '';
  throw new Error(`${fc.defaultReportMessage(details) ?? `Property "${name}" failed`}${cause}`, {
    cause: details.errorInstance,
  });
}

/**
 * The seed of a property's cases. `FUZZ_SEED` replays a run (the failure report names its seed). Otherwise `npm test`
 * (no `FUZZ_RUNS`) draws from a fixed seed per property, the same cases on every run, so that the suite fails on a
 * change of the code and never on the luck of the draw; `npm run fuzz` (which sets `FUZZ_RUNS`) draws new cases each
 * run (undefined: fast-check picks the seed).
 */
export function seedOf(name: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const replay = Number(env.FUZZ_SEED);
  if (env.FUZZ_SEED && Number.isInteger(replay)) return replay;
  if (env.FUZZ_RUNS) return undefined;
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

function report(
  name: string,
  details: Pick<fc.RunDetails<unknown>, 'numRuns' | 'failed' | 'interrupted'>,
  ms: number,
): void {
  const file = process.env.FUZZ_REPORT;
  if (!file) return;
  const line = {
    property: name,
    cases: details.numRuns,
    failed: details.failed,
    interrupted: details.interrupted,
    seconds: ms / 1000,
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
