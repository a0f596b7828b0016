import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

// What `npm publish` would ship: only what a user needs (the built entries, the CLI, the README, the changelog, the
// licence, the guide for assistants), never sources, tests, examples, the demo or the docs site.
const ROOT = resolve(import.meta.dirname, '../..');
const SHIPPED = [
  /^dist\/[\w-]+\.(js|cjs|d\.ts|d\.cts)(\.map)?$/,
  /^bin\/apollo-link-token-pair\.mjs$/,
  /^(README\.md|LICENSE|CHANGELOG\.md|package\.json|docs\/llms\.txt)$/,
];

it('npm pack lists only the built entries, the CLI, the README, the changelog, the licence and llms.txt', () => {
  // --ignore-scripts: no build; the list is of what is on disk, dist/ included when it was built.
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT }).toString();
  const [pack] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
  const files = pack!.files.map((file) => file.path);
  expect(files.filter((file) => !SHIPPED.some((allowed) => allowed.test(file)))).toEqual([]);
  for (const needed of [
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'package.json',
    'bin/apollo-link-token-pair.mjs',
    'docs/llms.txt',
  ])
    expect(files).toContain(needed);
  if (existsSync(resolve(ROOT, 'dist/index.js'))) {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/devtools.js');
  }
});
