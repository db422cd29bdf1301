// ESM and CommonJS builds of src/index.ts, one file each; dependencies stay imports (the user's bundler resolves them).
const esbuild = require('esbuild');
const path = require('node:path');
const pkg = require('../package.json');

const common = {
  entryPoints: [path.join(__dirname, '../src/index.ts')],
  bundle: true,
  platform: 'neutral',
  target: 'es2020',
  external: Object.keys(pkg.dependencies),
  sourcemap: true,
  logLevel: 'warning',
};

Promise.all([
  esbuild.build({ ...common, format: 'esm', outfile: path.join(__dirname, '../dist/index.mjs') }),
  esbuild.build({ ...common, format: 'cjs', outfile: path.join(__dirname, '../dist/index.cjs') }),
]).catch(() => process.exit(1));
