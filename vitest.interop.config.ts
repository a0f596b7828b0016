import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

// The interop suite (npm run test:interop): spec servers on eight stacks, each a child process. Its own command,
// since five of the stacks need packages `npm ci` does not install (npm run interop:install, and Debian's).
const config = mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/interop/stacks/**/*.test.ts'],
      testTimeout: 90_000,
      hookTimeout: 60_000,
      fileParallelism: false,
    },
  }),
);
config.test!.include = ['test/interop/stacks/**/*.test.ts'];
config.test!.exclude = configDefaults.exclude;
export default config;
