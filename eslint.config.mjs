// @ts-check
/**
 * One lint for the whole repository (`npm run lint`): typescript-eslint's type-checked recommended set on every
 * TypeScript and JavaScript file, with type information from the nearest tsconfig.json (the root one for src, test
 * and bench; the embedded database's own for packages/embedded-mongo; schematics/tsconfig.json for the schematic).
 * Formatting is Prettier's job (`prettier --check` in `npm run lint`), so eslint-config-prettier comes last.
 */
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The files whose imports the cycle rule follows. */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs'];

export default tseslint.config(
  {
    // The client's misuse fixture is wrong on purpose: its compile test expects tsc to refuse each marked line.
    ignores: [
      '**/dist/',
      '**/node_modules/',
      'coverage/',
      'data/',
      'bench/results/',
      '**/*.template',
      'packages/client/test/fixtures/',
    ],
  },
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
      // `_`-named bindings are the ones deliberately dropped: `{ _id: _, ...rest }`, a positional parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The app compiles to CommonJS, and `require()` inside a function is how a heavy module is loaded by its
      // first use (pdfmake, exceljs, isomorphic-git) and how an untyped package gets a type (autocannon).
      '@typescript-eslint/no-require-imports': 'off',
      // An `async` function without `await` is how a function promises to reject, never throw, and how a sandbox
      // implements an async port synchronously; the promise rules above catch the misuse that matters.
      '@typescript-eslint/require-await': 'off',
      // A caught `unknown` is passed on as it came (a batch's failed write rejects its waiters with that error).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // HTTP statuses are numbers that Nest names in a numeric enum (`status >= HttpStatus.BAD_REQUEST`), and
      // validated input is compared with string enum members before it is narrowed to the enum.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    // The database handles BSON values typed as `object` or `Document` whose classes (ObjectId, Decimal128, Long,
    // Binary) carry their own toString, which the rule cannot see; error messages stringify what a client sent.
    files: ['packages/embedded-mongo/src/**'],
    rules: { '@typescript-eslint/no-base-to-string': 'off' },
  },
  {
    // Tests read HTTP bodies (supertest's `body` is `any`), STOMP frames and driver documents, and assert on them:
    // an unexpected shape fails the assertion, so the no-unsafe-* rules would only ask for a cast before each
    // `expect`; for the same reason a test may type a parsed body `Record<string, any>`. They stay on for src,
    // bench and the database's own code.
    files: ['test/**', 'packages/*/test/**', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain CommonJS scripts (benchmarks, jest configs, test fixtures, the schematic) run without a build step.
    // Without annotations every parameter is `any`, so the no-unsafe-* rules would flag each use of one, and a
    // value's type is too loose to tell a Buffer from an object; the promise rules still apply. The schematic is
    // type-checked through JSDoc (schematics/tsconfig.json).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // No import cycles (issue 26). The rule follows runtime imports only: it skips `import type`, so the architecture
    // test (test/architecture/import-cycles.spec.ts) is what holds type imports to zero as well.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': SOURCE_EXTENSIONS,
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: [...SOURCE_EXTENSIONS, '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true, commonjs: true }] },
  },
  prettier,
);
