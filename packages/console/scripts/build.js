// The console as static files in dist/: index.html, console.css and one bundled, minified console.js (Preact and the
// typed client included), so the app serves everything itself (no CDN).
const esbuild = require('esbuild');
const { copyFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const src = path.join(__dirname, '../src');
const dist = path.join(__dirname, '../dist');
mkdirSync(dist, { recursive: true });
for (const file of ['index.html', 'console.css']) copyFileSync(path.join(src, file), path.join(dist, file));

esbuild
  .build({
    entryPoints: [path.join(src, 'main.tsx')],
    outfile: path.join(dist, 'console.js'),
    bundle: true,
    minify: true,
    sourcemap: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // sockjs-client reads `global`, which bundlers map to the browser's global object.
    define: { global: 'globalThis' },
    logLevel: 'warning',
  })
  .catch(() => process.exit(1));
