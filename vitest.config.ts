import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Tests written as a user would (the README's) import the package by name; here the name points at the sources.
  resolve: {
    alias: [
      { find: /^apollo-link-token-pair$/, replacement: source('index.ts') },
      {
        find: /^apollo-link-token-pair\/(react|service|server|ws|testing|doctor|devtools|devtools\/production|internal)$/,
        replacement: source('$1/index.ts'),
      },
      // The copy of graphql that Node loads (its CommonJS main): Vite would pick the `module` build for the tests'
      // own imports, and a GraphQLError of that second copy is no GraphQLError to a server framework in
      // node_modules (Yoga checks with `instanceof` and masks it as "Unexpected error.").
      { find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') },
    ],
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Spec servers on eight stacks, as child processes: npm run test:interop.
    exclude: [...configDefaults.exclude, 'test/interop/stacks/**'],
    testTimeout: 15_000,
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90 },
    },
  },
});
