/**
 * Jest runs TypeScript through ts-jest in transpile-only mode (type checking is `npm run typecheck`),
 * which keeps a cold run on two cores fast. The embedded database is used from its built output,
 * exactly as the application uses it.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/packages/client/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json', diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A bound, not an expectation of speed: on this two-core machine, shared with other work, CPU-heavy tests (twenty
  // concurrent checkouts or payments, PDFs, two app instances) took over 60 s at load 15-20 while passing.
  testTimeout: 180_000,
};
