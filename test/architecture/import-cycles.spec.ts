import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { findImportCycles } from './import-cycles';
import { readSources, repositoryRoot, SourceFile } from './model-ownership';

const file = (path: string, text: string): SourceFile => ({ path, text });

describe('import cycle finder', () => {
  it('should find a cycle made of type imports and index files', () => {
    const files = [
      file('src/a/source.ts', `import type { Registry } from './registry';`),
      file('src/a/registry.ts', `import { x } from '../b';`),
      file('src/b/index.ts', `export { Source } from '../a/source';`),
      file('src/c.ts', `import { Registry } from './a/registry';`),
    ];
    expect(findImportCycles(files)).toEqual([['src/a/registry.ts', 'src/a/source.ts', 'src/b/index.ts']]);
  });

  it('should find a file that imports itself and nothing in a tree', () => {
    expect(findImportCycles([file('src/self.ts', `import './self';`)])).toEqual([['src/self.ts']]);
    const tree = [
      file('src/a.ts', `import './b';\nimport './c';`),
      file('src/b.ts', `import './c';`),
      file('src/c.ts', ''),
    ];
    expect(findImportCycles(tree)).toEqual([]);
  });

  it('should follow .tsx files, as the console is written', () => {
    const files = [
      file('packages/console/src/app.tsx', `import { Explorer } from './explorer';`),
      file('packages/console/src/explorer.tsx', `import { api } from './api';`),
      file('packages/console/src/api/index.ts', `import type { App } from '../app';`),
    ];
    expect(findImportCycles(files)).toEqual([
      ['packages/console/src/api/index.ts', 'packages/console/src/app.tsx', 'packages/console/src/explorer.tsx'],
    ]);
  });
});

describe('the application', () => {
  it('should have no import cycle in src/, type imports included', () => {
    expect(findImportCycles(readSources(repositoryRoot))).toEqual([]);
  });
});

describe('the packages', () => {
  const packages = readdirSync(join(repositoryRoot, 'packages'));

  it('should include the embedded database, the client and the console', () => {
    expect(packages).toEqual(expect.arrayContaining(['client', 'console', 'embedded-mongo']));
  });

  it.each(packages)('should have no import cycle in packages/%s/src, type imports included', (name) => {
    const sources = readSources(repositoryRoot, join(repositoryRoot, 'packages', name, 'src'));
    expect(sources.length).toBeGreaterThan(0);
    expect(findImportCycles(sources)).toEqual([]);
  });
});
