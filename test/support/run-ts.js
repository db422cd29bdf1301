// Runs a TypeScript entry point in a child process the way jest does (transpile only, decorator metadata on):
// `node test/support/run-ts.js src/main.ts`. Used by tests that must see the real process (exit codes, signals).
//
// Transpiling every source file costs a child process seconds of CPU before the app starts, and the tests start
// dozens of them, so each file's output is kept in `node_modules/.cache/run-ts/` under the hash of what decides it
// (the TypeScript version, the options, the path and the source). TypeScript itself is loaded only on a miss.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'run-ts');

const options = {
  module: 'CommonJS',
  target: 'ES2022',
  emitDecoratorMetadata: true,
  experimentalDecorators: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  sourceMap: false,
};
const typescriptVersion = require('typescript/package.json').version;
const optionsKey = JSON.stringify({ typescriptVersion, options });

let ts;
function transpile(source, filename) {
  ts ??= require('typescript');
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind[options.module],
    target: ts.ScriptTarget[options.target],
  };
  return ts.transpileModule(source, { compilerOptions, fileName: filename }).outputText;
}

function transpiledCached(filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = createHash('sha256').update(`${optionsKey}\0${filename}\0${source}`).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const output = transpile(source, filename);
    // Written aside and renamed into place: processes started together never read half a file.
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(partial, output);
    fs.renameSync(partial, cached);
    return output;
  }
}

require.extensions['.ts'] = (module, filename) => module._compile(transpiledCached(filename), filename);

const entry = path.resolve(process.argv[2]);
process.argv.splice(1, 1);
require(entry);
