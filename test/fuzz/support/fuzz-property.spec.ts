import fc from 'fast-check';
import { checkProperty, seedOf } from './fuzz-property';

describe(seedOf.name, () => {
  it('should give npm test a fixed seed per property', () => {
    expect(seedOf('a property', {})).toBe(seedOf('a property', {}));
    expect(seedOf('a property', {})).not.toBe(seedOf('another property', {}));
  });

  it('should leave npm run fuzz (FUZZ_RUNS) to a random seed', () => {
    expect(seedOf('a property', { FUZZ_RUNS: '100000' })).toBeUndefined();
  });

  it('should replay FUZZ_SEED whatever the mode', () => {
    expect(seedOf('a property', { FUZZ_SEED: '-42' })).toBe(-42);
    expect(seedOf('a property', { FUZZ_SEED: '7', FUZZ_RUNS: '10' })).toBe(7);
  });
});

describe(checkProperty.name, () => {
  const saved = { FUZZ_RUNS: process.env.FUZZ_RUNS, FUZZ_SEED: process.env.FUZZ_SEED };
  // as npm test runs it (npm run fuzz runs this file too, with FUZZ_RUNS set)
  beforeEach(() => {
    delete process.env.FUZZ_RUNS;
    delete process.env.FUZZ_SEED;
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  });

  it('should draw the same cases on every run of npm test', async () => {
    const drawn = async () => {
      const cases: number[] = [];
      await checkProperty(
        'fixed draw',
        fc.property(fc.integer(), (n) => void cases.push(n)),
        20,
      );
      return cases;
    };
    expect(await drawn()).toEqual(await drawn());
  });
});
