import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Tests written as an app would (test/readme) import the package by its name, as tsconfig.json's paths map it.
  resolve: {
    alias: [
      { find: /^apollo-link-token-pair$/, replacement: src('index.ts') },
      { find: /^apollo-link-token-pair\/(react|service|server|ws|testing)$/, replacement: src('$1/index.ts') },
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
