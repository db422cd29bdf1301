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

  it('should report the arrows of issue 26 that ran from auth, sites and realtime up into the modules above', () => {
    const files = [
      file('src/auth/login/credential-check.ts', `import { R } from '../../services/customer-analytics/r';`),
      file('src/sites/site-repository.ts', `import { RepositoryRegistry } from '../realtime/storage/registry';`),
      file(
        'src/realtime/realtime.module.ts',
        `import { W } from '../services/catalogue/storefront-raw-writes.module';`,
      ),
      file('src/shared-state/shared-counters.ts', `import { TtlCache } from '../auth/ttl-cache';`),
    ];
    expect(findLayerViolations(files).map(({ detail }) => detail)).toEqual([
      'auth imports services/customer-analytics (../../services/customer-analytics/r)',
      'sites imports realtime (../realtime/storage/registry)',
      'realtime imports services/catalogue (../services/catalogue/storefront-raw-writes.module)',
      'shared-state imports auth (../auth/ttl-cache)',
    ]);
  });

  it("should take an import of a folder as an import of the folder's index", () => {
    const files = [
      file('src/auth/login/auth.controller.ts', `import { AppConfig } from '../../config';`),
      file('src/config/index.ts', ''),
      file('src/sites/x.ts', `import { createApp } from '../bootstrap';`),
      file('src/bootstrap.ts', ''),
    ];
    expect(findLayerViolations(files).map(({ detail }) => detail)).toEqual(['sites imports app (../bootstrap)']);
  });

  it('should report a config that imports common', () => {
    const config = file('src/config/app-config.ts', `import { Role } from '../common/principal';`);
    expect(findLayerViolations([config])).toHaveLength(1);
  });
});

describe('the application', () => {
  it('should import nothing into a lower layer from a module above it', () => {
    expect(findLayerViolations(readSources(repositoryRoot))).toEqual([]);
  });
});
