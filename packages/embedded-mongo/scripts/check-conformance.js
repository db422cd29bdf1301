'use strict';
// Reads the unified runner's --json results and fails on any FAIL that conformance-skips.json does
// not list (entries: {"test": "<file> :: <description>", "reason": "..."}).
const fs = require('node:fs');

const [resultsPath, skipsPath, logPath] = process.argv.slice(2);
if (!fs.existsSync(resultsPath)) {
  process.stdout.write(fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : 'runner produced no results\n');
  process.exit(1);
}
const { counts, results } = JSON.parse(fs.readFileSync(resultsPath, 'utf8'));
const skips = new Map(JSON.parse(fs.readFileSync(skipsPath, 'utf8')).map((skip) => [skip.test, skip.reason]));

const failed = results.filter((r) => r.status === 'FAIL');
const unexpected = failed.filter((r) => !skips.has(`${r.file} :: ${r.test}`));
for (const r of failed) {
  const name = `${r.file} :: ${r.test}`;
  const note = skips.has(name) ? `skipped on purpose: ${skips.get(name)}` : r.reason;
  process.stdout.write(`FAIL ${name} -- ${note}\n`);
}
process.stdout.write(
  `${counts.PASS} passed, ${counts.FAIL} failed (${failed.length - unexpected.length} listed in conformance-skips.json), ${counts.SKIP} skipped by the runner\n`,
);
process.exit(unexpected.length > 0 ? 1 : 0);
