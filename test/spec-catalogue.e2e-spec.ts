import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..');

const SPEC = [
  '**dummyTree**',
  '- `getElements() → List<TreeElement>`',
  '',
  '**jobsManagementServiceImpl**',
  '- `startJob(type, total) → Job`',
  '',
  '**nowhereServiceImpl**',
  '- `anything(id) → void`',
].join('\n');

describe('npm run catalogue', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ccb-catalogue-test-'));
    writeFileSync(join(dir, 'spec.md'), SPEC);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should compare the registry of the started app with the spec, ending with the summary', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['test/support/run-ts.js', 'src/spec-catalogue/main.ts', join(dir, 'spec.md')],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'dummyTree (1/1)',
        '  ok getElements()',
        '  ok startJob(String, String)   (registered as startJob(String, int))',
        '  -- anything(String)',
        'Registered, not in the spec:',
        '  + jobsManagementServiceImpl.getRepository()',
      ]),
    );
    expect(lines.at(-1)).toBe('registered 2/3 spec methods; missing: nowhereServiceImpl.anything(String)');
  });

  it('should compare with the spec method list kept in the repository when given no spec', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['test/support/run-ts.js', 'src/spec-catalogue/main.ts'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('registered 158/158 spec methods; missing: none');
  });
});
