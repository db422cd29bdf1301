import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from './error-codes';

describe('ERROR_CODES', () => {
  it('should be the table of the root README, row for row', () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map(([, code, status, meaning]) => [
      code,
      Number(status),
      meaning,
    ]);
    const table = Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => [code, status, meaning]);
    expect(rows).toEqual(table);
  });

  it('should name every code in capitals with underscores', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });
});
