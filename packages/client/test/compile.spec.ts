import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FIXTURE = path.join(__dirname, 'fixtures/misuse.ts');
const PACKAGE_DIR = path.join(__dirname, '..');

let previous: ts.Program | undefined;

/**
 * Type-checks `source` as the fixture file with the package's compiler options; answers the diagnostics' lines.
 * The second check reuses the first program's unchanged files (the client and its generated types).
 */
function errorLines(source: string): number[] {
  const config = ts.readConfigFile(path.join(PACKAGE_DIR, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, PACKAGE_DIR);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => (path.resolve(fileName) === FIXTURE ? source : readFile(fileName));
  const program = ts.createProgram({ rootNames: [FIXTURE], options, host, oldProgram: previous });
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => (d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : -1));
}

describe('the generated bean types', () => {
  const fixture = readFileSync(FIXTURE, 'utf8');
  const marked = fixture
    .split('\n')
    .flatMap((line, index) => (line.trim().startsWith('// @ts-expect-error') ? [index + 2] : []));

  it('should accept the fixture: every refused call is marked and every mark is needed', () => {
    expect(marked.length).toBeGreaterThanOrEqual(7);
    expect(errorLines(fixture)).toEqual([]);
  });

  it('should refuse every marked call once the marks are removed', () => {
    const unmarked = fixture.replace(/^(\s*)\/\/ @ts-expect-error/gm, '$1//');
    expect([...new Set(errorLines(unmarked))].sort((a, b) => a - b)).toEqual(marked);
  });
});
