// @ts-check
// One ESLint config for the whole tree: type-aware typescript-eslint rules for the TypeScript,
// the plain recommended rules for the CommonJS benchmark scripts, React's hook rules for ui/.
// Layout is Prettier's job (eslint-config-prettier turns the stylistic rules off).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['dist/', 'data/', 'apps/', 'test-output/', 'templates/playground/*.js', 'tools/federation-audit/suites/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', 'scripts/*.ts', 'ui/vite.config.mts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `any` arrives from JSON.parse, moleculer's ctx.params and untyped libraries, and is checked by
      // the action and document schemas at the edges; typing every access is a refactor, not a lint fix.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `async` marks functions that implement a promise-returning contract (actions, hooks, stores):
      // removing it would turn their throws into synchronous ones.
      '@typescript-eslint/require-await': 'off',
      // Callbacks are declared with method shorthand in types and destructured (props, route contexts);
      // none of them use `this`, and the rule can not see that.
      '@typescript-eslint/unbound-method': 'off',
      // `String(value)` on a JSON value of unknown shape is the intended, defensive conversion.
      '@typescript-eslint/no-base-to-string': 'off',
      // A leading underscore names what is deliberately unused (rest-destructuring to drop a field,
      // Express's four-argument error handlers).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Re-rejecting a caught or a library's callback error passes it on unchanged.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // The Bloblang parser and the Go-template engine unwind with light control-flow objects, not Errors.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'file', name: 'ParseFailure', path: 'services/streams/bloblang/scanner.ts' },
            { from: 'file', name: 'LoopControl', path: 'lib/go-template/template.ts' },
          ],
        },
      ],
      // graphql-js's Kind and OperationTypeNode are string enums, compared with their literal values.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // Unions that list the known values beside `string` or `unknown` document them.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Linked scopes are walked from `this`, and object-literal getters need their owner's `this`.
      '@typescript-eslint/no-this-alias': 'off',
      // require() is used where import can not be: untyped CommonJS modules, Node internals, and
      // plugin files loaded at run time.
      '@typescript-eslint/no-require-imports': 'off',
      // Paths and header values are checked for control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Node's URLSearchParams (declared by @types/node) prints as a query string, like the DOM's.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowNumber: true,
          allowBoolean: true,
          allowNullish: true,
          allowRegExp: true,
          allow: [
            { from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] },
            { from: 'package', package: 'url', name: 'URLSearchParams' },
          ],
        },
      ],
    },
  },
  {
    files: ['ui/src/**/*.tsx'],
    rules: {
      // React event handlers are async and catch and show their own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Test servers answer from async listeners; a rejection there is an unhandled rejection,
      // which mocha reports as the running test's failure.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['test/support/ui-build.ts'],
    rules: {
      // Vite is an ES module: `new Function` keeps a real import() that the CommonJS transform would rewrite.
      '@typescript-eslint/no-implied-eval': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'plugins/**/test/**/*.ts', 'plugins/**/*.spec.ts'],
    rules: {
      // Tests read response bodies as loosely typed JSON.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    files: ['ui/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    // The classic hook rules. The React Compiler's diagnostics (set-state-in-effect, purity, refs)
    // are for code the compiler builds; the dashboard is not, and it loads data in effects by design.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // The designer edits API definitions, versions and sessions as free-form JSON records.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
