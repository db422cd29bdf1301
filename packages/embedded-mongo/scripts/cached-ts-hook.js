// Loads `.ts` files through sucrase's transpile-only transform, as `sucrase/register/ts` does, keeping each file's
// output in `node_modules/.cache/embedded-mongo-ts/` under the hash of what decides it (sucrase's version, the
// options, the path and the source). Used by a server thread started from the TypeScript sources (the package's own
// tests, `src/worker/spawn.ts`) and by the tests' command-line runs: without it every one of them transpiled the
// whole package again (about 0.6 s of CPU per server start). Sucrase itself is loaded only on a miss.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const SUCRASE_PACKAGE = require.resolve('sucrase/package.json');
const CACHE_DIR = path.join(path.dirname(SUCRASE_PACKAGE), '..', '.cache', 'embedded-mongo-ts');
const OPTIONS = { transforms: ['imports', 'typescript'] };
const optionsKey = JSON.stringify({ sucrase: require(SUCRASE_PACKAGE).version, options: OPTIONS });

let sucrase;
function transpile(source, filePath) {
  sucrase ??= require('sucrase');
  const { code, sourceMap } = sucrase.transform(source, {
    ...OPTIONS,
    filePath,
    sourceMapOptions: { compiledFilename: filePath },
  });
  const map = Buffer.from(JSON.stringify(sourceMap)).toString('base64');
  return `${code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${map}`;
}

function transpiledCached(filePath) {
  const source = fs.readFileSync(filePath, 'utf8');
  const key = createHash('sha256').update(`${optionsKey}\0${filePath}\0${source}`).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const output = transpile(source, filePath);
    // Written aside and renamed into place: threads and processes started together never read half a file.
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${cached}.${process.pid}.${require('node:worker_threads').threadId}.tmp`;
    fs.writeFileSync(partial, output);
    fs.renameSync(partial, cached);
    return output;
  }
}

Module._extensions['.ts'] = (module, filePath) => module._compile(transpiledCached(filePath), filePath);
