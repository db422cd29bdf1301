import { findLayerViolations, importsOf } from './layering';
import { readSources, repositoryRoot, SourceFile } from './model-ownership';

const file = (path: string, text: string): SourceFile => ({ path, text });

describe('layering checker', () => {
  it('should find every kind of import, types and re-exports included', () => {
    const source = file(
      'src/common/x.ts',
      [
        `import type { A } from '../auth/a';`,
        `export { B } from './b';`,
        `const c = import('../sites/c');`,
        `const d = require('../realtime/d');`,
        `import e = require('../mail/e');`,
      ].join('\n'),
    );
    expect(importsOf(source)).toEqual([
      { specifier: '../auth/a', line: 1 },
      { specifier: './b', line: 2 },
      { specifier: '../sites/c', line: 3 },
      { specifier: '../realtime/d', line: 4 },
      { specifier: '../mail/e', line: 5 },
    ]);
  });

  it('should report an import from a framework layer up into a feature module', () => {
    const common = file('src/common/request-context.ts', `import type { A } from '../auth/authenticated-request';`);
    const bean = file('src/bean/admission/x.ts', `import { ContextHeaders } from '../../sites/context-headers';`);
    expect(findLayerViolations([common, bean])).toEqual([
      { file: common.path, line: 1, detail: 'common imports auth (../auth/authenticated-request)' },
      { file: bean.path, line: 1, detail: 'bean imports sites (../../sites/context-headers)' },
    ]);
  });

  it('should allow imports downwards, within a layer and from packages', () => {
    const files = [
      file('src/bean/bean-invoker.ts', `import { codedError } from '../common/errors';\nimport { x } from './y';`),
      file('src/common/logger.options.ts', `import { AppConfig } from '../config/app-config';\nimport 'express';`),
      file('src/services/orders/o.ts', `import { Bean } from '../../bean';\nimport { A } from '../../auth/a';`),
    ];
    expect(findLayerViolations(files)).toEqual([]);
  });

  it('should report a config that imports common', () => {
    const config = file('src/config/app-config.ts', `import { Role } from '../common/principal';`);
    expect(findLayerViolations([config])).toHaveLength(1);
  });
});

describe('the application', () => {
  it('should import nothing from a feature module into common, config or bean', () => {
    expect(findLayerViolations(readSources(repositoryRoot))).toEqual([]);
  });
});
