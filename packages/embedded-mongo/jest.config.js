/** Tests run the real server over TCP with the official driver; ts-jest transpiles only (`tsc` type-checks). */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A bound, not an expectation of speed: on a shared two-core machine at load 20, the isolation test's 100,000-document
  // seed, the store checks' command-line runs and the backups under write load each took over 60 s.
  testTimeout: 180_000,
};
