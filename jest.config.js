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
  testTimeout: 60000,
};
