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
});

describe('the application', () => {
  it('should have no import cycle in src/, type imports included', () => {
    expect(findImportCycles(readSources(repositoryRoot))).toEqual([]);
  });
});
