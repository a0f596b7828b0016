import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkIncludes,
  checkReadmeLinks,
  extractMarkdown,
  extractTsdoc,
  typecheckSnippets,
} from '../../scripts/check-snippets';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so that the blocks resolve @apollo/client and the others from its node_modules.
const workDir = join(root, '.cache', `snippets-test-${process.pid}`);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const markdown = [
  '# A page', // 1
  '',
  '```ts', // 3
  "import { createTokenAuth } from 'apollo-link-token-pair';",
  'export const auth = createTokenAuth({ uri });', // 5: `uri` is given
  '```',
  '',
  '```ts', // 8
  "import { ApolloClient, ApolloLink, HttpLink } from '@apollo/client';",
  '',
  'new ApolloClient({ link: ApolloLink.from([auth.link, new HttpLink({ uri })]), cache });', // 11: `cache` is not
  '```',
  '',
  '<!-- snippet: skip -->',
  '```ts',
  'this is not TypeScript at all',
  '```',
  '',
  '```sh',
  'npm ci && npm test',
  '```',
].join('\n');

// The TokenStore example as it was: react-native-keychain 10 answers `false` when nothing is stored.
const tsdoc = [
  '/**',
  ' * A store.',
  ' *',
  ' * @example', // 4
  ' * ```ts',
  " * import * as Keychain from 'react-native-keychain';",
  ' * const store: TokenStore = {',
  " *   get: async () => JSON.parse((await Keychain.getGenericPassword())?.password ?? 'null'),", // 8
  " *   set: (pair) => Keychain.setGenericPassword('tokens', JSON.stringify(pair)),", // 9
  ' *   clear: () => Keychain.resetGenericPassword(),', // 10
  ' * };',
  ' * ```',
  ' *',
  ' * @example An inline one: `createTokenAuth({ uri })`', // 14
  ' */',
  'export interface Example {}',
].join('\n');

describe('check-snippets', () => {
  it('extracts the TypeScript blocks of a page with the line of their first code line, and honours skip', () => {
    const { snippets, problems } = extractMarkdown('page.md', markdown);
    expect(problems).toEqual([]);
    expect(snippets.map((s) => [s.line, s.lang])).toEqual([
      [4, 'ts'],
      [9, 'ts'],
    ]);
  });

  it('extracts fenced @example blocks and refuses an inline @example', () => {
    const { snippets, problems } = extractTsdoc('src/Example.ts', tsdoc);
    expect(snippets).toHaveLength(1);
    expect(snippets[0]).toMatchObject({ line: 6, lang: 'ts', tsdoc: true });
    expect(snippets[0]!.code.split('\n')[0]).toBe("import * as Keychain from 'react-native-keychain';");
    expect(problems).toEqual([
      { source: 'src/Example.ts', line: 14, message: expect.stringContaining('without a fenced code block') },
    ]);
  });

  it('reports an undefined name and the old TokenStore example at their lines, and nothing in the good block', () => {
    const snippets = [
      ...extractMarkdown('page.md', markdown).snippets,
      ...extractTsdoc('src/Example.ts', tsdoc).snippets,
    ];
    const problems = typecheckSnippets(root, snippets, workDir);
    const where = problems.map((p) => `${p.source}:${p.line}`);
    expect(where).toContain('page.md:11');
    expect(problems.find((p) => p.source === 'page.md')!.message).toMatch(/TS\d+: .*'cache'/);
    expect(where.filter((w) => w.startsWith('page.md'))).toEqual(['page.md:11']);
    // `false?.password`, and `set` answering Promise<false | Result> where the store wants void.
    expect(where).toEqual(expect.arrayContaining(['src/Example.ts:8', 'src/Example.ts:9']));
    expect(problems.find((p) => p.line === 8)!.message).toMatch(/password/);
  }, 60_000);

  it('requires an included block to equal its file byte for byte', () => {
    mkdirSync(join(root, '.cache'), { recursive: true });
    const dir = mkdtempSync(join(root, '.cache', 'include-'));
    try {
      writeFileSync(join(dir, 'Example.test.ts'), 'export const answer = 42;\n');
      const page = (code: string) =>
        extractMarkdown(
          'page.md',
          [`<!-- include: ${dir.slice(root.length + 1)}/Example.test.ts -->`, '```ts', code, '```'].join('\n'),
        );
      expect(checkIncludes(root, page('export const answer = 42;').snippets)).toEqual([]);
      const differs = checkIncludes(root, page('export const answer = 41;').snippets);
      expect(differs).toEqual([{ source: 'page.md', line: 3, message: expect.stringContaining('differs from') }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('copies a file into an empty included block, and leaves what follows the block as it was', () => {
    mkdirSync(join(root, '.cache'), { recursive: true });
    const dir = mkdtempSync(join(root, '.cache', 'include-'));
    try {
      writeFileSync(join(dir, 'Example.test.ts'), 'export const answer = 42;\n');
      const text = [`<!-- include: ${dir.slice(root.length + 1)}/Example.test.ts -->`, '```ts', '```', 'After.', ''];
      const doc = join(dir, 'page.md');
      writeFileSync(doc, text.join('\n'));
      const source = doc.slice(root.length + 1);
      const { snippets } = extractMarkdown(source, readFileSync(doc, 'utf8'));
      expect(checkIncludes(root, snippets, true)).toEqual([
        expect.objectContaining({ message: 'rewritten; run again' }),
      ]);
      expect(readFileSync(doc, 'utf8')).toBe(
        [text[0], '```ts', 'export const answer = 42;', '```', 'After.', ''].join('\n'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('allows only absolute links and anchors of its own headings in the README', () => {
    const readme = [
      '## Server rendering (Next.js App Router)',
      '[ok](https://github.com/o/r/blob/main/docs/a.md) [ok](#server-rendering-nextjs-app-router)',
      '[relative](docs/a.md)',
      '[missing](#nowhere)',
      '```ts',
      'const notALink = [x](y);',
      '```',
    ].join('\n');
    expect(checkReadmeLinks('README.md', readme)).toEqual([
      { source: 'README.md', line: 3, message: expect.stringContaining('relative') },
      { source: 'README.md', line: 4, message: 'no heading has the anchor #nowhere' },
    ]);
  });
});
