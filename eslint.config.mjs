// @ts-check
/**
 * One lint for the whole repository (`npm run lint`): typescript-eslint's type-checked recommended set on every
 * TypeScript and JavaScript file, with type information from the nearest tsconfig.json (the root one for src, test
 * and bench; the embedded database's own for packages/embedded-mongo; schematics/tsconfig.json for the schematic).
 * Formatting is Prettier's job (`prettier --check` in `npm run lint`), so eslint-config-prettier comes last.
 */
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/', '**/node_modules/', 'coverage/', 'data/', 'bench/results/', '**/*.template'] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'packages/embedded-mongo/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The bugs this lint exists for (issue 16): a promise nobody awaits or catches, a promise where a callback's
      // result is ignored, `await` on a non-promise, a switch that silently misses a member of a union.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tests read HTTP bodies (supertest's `body` is `any`), STOMP frames and driver documents, and assert on them:
    // an unexpected shape fails the assertion, so the no-unsafe-* rules would only ask for a cast before each
    // `expect`. They stay on for src, bench and the database's own code.
    files: ['test/**', 'packages/embedded-mongo/test/**', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain CommonJS scripts (benchmarks, jest configs, test fixtures, the schematic) run without a build step.
    // Without annotations every parameter is `any`, so the no-unsafe-* rules would flag each use of one; the
    // promise rules still apply. The schematic is type-checked through JSDoc (schematics/tsconfig.json).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
