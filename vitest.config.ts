import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Tests written as a user would (the README's) import the package by name; here the name points at the sources.
  resolve: {
    alias: [
      { find: /^apollo-link-token-pair$/, replacement: source('index.ts') },
      { find: /^apollo-link-token-pair\/(react|service|server|ws|testing)$/, replacement: source('$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 15_000,
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90 },
    },
  },
});
