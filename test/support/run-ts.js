// Runs a TypeScript entry point in a child process the way jest does (transpile only, decorator metadata on):
// `node test/support/run-ts.js src/main.ts`. Used by tests that must see the real process (exit codes, signals).
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  emitDecoratorMetadata: true,
  experimentalDecorators: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  sourceMap: false,
};

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};

const entry = path.resolve(process.argv[2]);
process.argv.splice(1, 1);
require(entry);
