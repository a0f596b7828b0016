// ESLint for the package (npm run lint = eslint . && prettier --check .). Prettier owns the layout; ESLint the rest.
//
// src/ gets typescript-eslint's type-checked rules and the house rules. Everything else (tests, demo, bench,
// scripts) gets the rules that need no types: parsing 200 more files with the type checker doubles the run (2 min
// on our CI's 2 cores), and in code that reads untyped JSON answers and mocks the unsafe-* rules are mostly noise. (Vitest itself warns of an
// `expect(…).rejects` left un-awaited, the floating promise that matters most in a test.)
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import maxOwnLines from './eslint/rules/max-own-lines.js';

const local = { rules: { 'max-own-lines': maxOwnLines } };

/** Settings of rules that are noise for this codebase, everywhere. */
const tuning = {
  // `_`-named bindings are meant to be unused; `const { secret, ...rest } = o` drops `secret` on purpose.
  '@typescript-eslint/no-unused-vars': [
    'error',
    { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
  ],
  // Apollo's own pattern, which our links follow (STYLE.md): options in a merged `declare namespace XLink`.
  '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
};

/** Settings of type-aware rules that are noise for this codebase. */
const typedTuning = {
  // Our stores, sessions and clocks are objects of closures made by factories, never classes: `store.load` passed
  // on keeps its meaning. Their interfaces use method syntax for the TSDoc, which the rule cannot see past.
  '@typescript-eslint/unbound-method': 'off',
  // `async` on a method that implements a Promise-returning interface turns a synchronous throw into a rejection,
  // which is the point even with no `await` in it.
  '@typescript-eslint/require-await': 'off',
  // A reason passed on as it came is `unknown` (a failed call's) or `any` (an AbortSignal's, as the DOM types it);
  // rejecting with a literal is still an error.
  '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
};

export default defineConfig([
  globalIgnores([
    'dist',
    'coverage',
    'test-output',
    'docs/api',
    // The documentation site's build, its files while it builds, and VitePress's cache (npm run docs:build, docs:dev).
    'docs/.vitepress/dist',
    'docs/.vitepress/.temp',
    'docs/.vitepress/cache',
    // Written by npm run check:snippets, and gitignored.
    '.cache',
    '**/soak-report',
    // Real apps with their own package.json, lockfile, tsconfig and node_modules (npm run examples:install).
    'examples',
    // The interop stacks' servers are written the way each framework's docs teach, not in our style.
    'test/interop/stacks',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { local },
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommended],
    rules: {
      ...tuning,
      // Tests, demo and scripts stub and poke at untyped values on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      // They strip a child process's terminal colours (`/\x1b\[[0-9;]*m/`) from what it prints.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      ...tuning,
      ...typedTuning,
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // Options objects, not positional flags (STYLE.md): four parameters at most.
      'max-params': ['error', 4],
      // 80 lines of a function's own, not counting the functions declared inside it (max-lines-per-function would
      // count them: a factory's closure would carry every method it returns).
      'local/max-own-lines': ['error', { max: 80 }],
    },
  },
  {
    // The engine's shell holds its cells of state and calls the parts; a rule that would grow it past 300 lines
    // goes into a part (docs/contributing.md, "The engine's parts").
    files: ['src/core/session/createTokenSession.ts'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    // Plain JavaScript (this file, the local rules, the build configs, bin/): Node's globals.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', require: 'readonly', module: 'writable', URL: 'readonly' },
    },
  },
]);
