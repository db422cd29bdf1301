import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../median';

/**
 * `npm run bench:pdf -- --baseline <dir> [--rounds 5 --renders 20]`
 * Renders one invoice to PDF (`renderPdf`, the path of invoices and credit notes) in a fresh process per round, with
 * this build and with the build checked out at `--baseline` (whose `node_modules` resolves), rounds alternating.
 * Reports medians of: RSS added by the first PDF (loading pdfmake and the HTML parser, and one render), RSS after all
 * renders, the first render's time (loading included) and the median time of the later renders.
 */
const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    renders: { type: 'string', default: '20' },
  },
});

const ROOT = join(__dirname, '..', '..');

interface Measurement {
  rssBeforeMb: number;
  rssAfterFirstMb: number;
  rssAfterMb: number;
  firstMs: number;
  medianMs: number;
}

function measure(root: string): Promise<Measurement> {
  const child = spawn(process.execPath, ['test/support/run-ts.js', 'bench/pdf/render.ts', root, values.renders], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Measurement) : reject(new Error(`render exited with ${code}`)),
    ),
  );
}

/** The medians of one build's rounds, as one line. */
function summary(name: string, rounds: Measurement[]): Record<string, number> {
  const of = (pick: (m: Measurement) => number) => median(rounds.map(pick));
  const figures = {
    firstPdfMb: of((m) => m.rssAfterFirstMb - m.rssBeforeMb),
    rssAfterMb: of((m) => m.rssAfterMb),
    firstMs: of((m) => m.firstMs),
    medianMs: of((m) => m.medianMs),
  };
  process.stdout.write(
    `${name}: the first PDF adds ${figures.firstPdfMb.toFixed(0)} MB RSS, ${figures.rssAfterMb.toFixed(0)} MB after ` +
      `${values.renders} renders; first render ${figures.firstMs.toFixed(0)} ms, then ${figures.medianMs.toFixed(1)} ms ` +
      `(medians of ${rounds.length} processes; later renders ${rounds.map((m) => m.medianMs.toFixed(0)).join(', ')})\n`,
  );
  return figures;
}

async function main(): Promise<void> {
  if (!values.baseline) throw new Error('--baseline <dir>: a checkout of the build to compare with');
  const builds = { 'this build': ROOT, baseline: values.baseline };
  const results = new Map<string, Measurement[]>(Object.keys(builds).map((name) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, root] of Object.entries(builds)) results.get(name)!.push(await measure(root));
  }
  const [after, before] = [...results].map(([name, rounds]) => summary(name, rounds));
  const ratio = (key: string) => (after[key] / before[key]).toFixed(2);
  process.stdout.write(
    `this build / baseline: first PDF's RSS ${ratio('firstPdfMb')}×, RSS after ${ratio('rssAfterMb')}×, ` +
      `first render ${ratio('firstMs')}×, later renders ${ratio('medianMs')}×\n`,
  );
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
