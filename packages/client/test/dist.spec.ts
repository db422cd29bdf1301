import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const DIST = path.join(__dirname, '../dist');

/** The built package as Node loads it (`npm run build` at the root builds it before the tests). */
describe('the built @ccb/client', () => {
  const probe = 'console.log(typeof m.createClient, typeof m.CcbError, Object.keys(m.beanManifest).length > 0)';

  it('should be built', () => {
    const missing = ['index.mjs', 'index.cjs', 'types/index.d.ts'].filter((file) => !existsSync(path.join(DIST, file)));
    expect(missing).toEqual([]);
  });

  it('should load as CommonJS', () => {
    const script = `const m = require(${JSON.stringify(path.join(DIST, 'index.cjs'))}); ${probe}`;
    const output = execFileSync(process.execPath, ['-e', script]);
    expect(output.toString().trim()).toBe('function function true');
  });

  it('should load as an ES module', () => {
    const script = `import(${JSON.stringify(path.join(DIST, 'index.mjs'))}).then((m) => { ${probe} })`;
    expect(execFileSync(process.execPath, ['-e', script]).toString().trim()).toBe('function function true');
  });
});
