import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpecMethods, SpecMethod, specSignature } from './spec-methods';

const SPEC = [
  '**jobsManagementServiceImpl**',
  '- `startJob(type, total: int) → Job`',
  '- `removeJobsByIds(jobIds: IdList) → void`',
  '',
  'Methods after this: not shown.',
  '',
  '**vcsProvider** (all `→ void`)',
  '- `update()`, `commit(message)`',
].join('\n');

describe('parseSpecMethods', () => {
  it('should read each bean and its methods, typing untyped arguments as String', () => {
    expect(parseSpecMethods(SPEC).map((m) => `${m.beanId}.${specSignature(m)}`)).toEqual([
      'jobsManagementServiceImpl.startJob(String, int)',
      'jobsManagementServiceImpl.removeJobsByIds(IdList)',
      'vcsProvider.update()',
      'vcsProvider.commit(String)',
    ]);
  });

  it('should find nothing in a text without a method list', () => {
    expect(parseSpecMethods('# Title\n- `code` in a list')).toEqual([]);
  });
});

describe('the spec method list kept in the repository (spec-method-list.json)', () => {
  const kept = JSON.parse(readFileSync(join(__dirname, 'spec-method-list.json'), 'utf8')) as SpecMethod[];
  const specFile = join(__dirname, '../../../shared/spec/service-gateway-interface.md');

  it('should hold the 158 methods of the 22 beans of the spec', () => {
    expect(kept).toHaveLength(158);
    expect(new Set(kept.map((method) => method.beanId)).size).toBe(22);
  });

  it('should be what the spec beside the repository lists, where it is there to compare', () => {
    const spec = existsSync(specFile) ? parseSpecMethods(readFileSync(specFile, 'utf8')) : kept;
    expect(kept).toEqual(spec);
  });
});
