import { parseSpecMethods, specSignature } from './spec-methods';

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
