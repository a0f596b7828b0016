import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { GUIDES } from '../../docs/.vitepress/guides';
import { makeLlmsTxt } from '../../docs/.vitepress/llmsTxt';

const root = join(__dirname, '../..');
const listed = GUIDES.flatMap(({ pages }) => pages.map(({ file }) => file));

it('docs/llms.txt, the copy in the package, is the one the site builds from the README and the guide', () => {
  // When this fails: npm run docs:llms
  expect(readFileSync(join(root, 'docs/llms.txt'), 'utf8')).toBe(makeLlmsTxt(root));
});

it('the guide lists every page of docs/ once, and nothing that is gone: the sidebar and llms.txt miss none', () => {
  const pages = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'));
  expect([...listed].sort()).toEqual(pages.sort());
});

it('tells an assistant the link order, where tokens live and which mode to pick, and links every guide', () => {
  const llms = makeLlmsTxt(root);
  expect(llms).toMatch(/^# apollo-link-token-pair\n\n> Apollo Client 4 links/);
  expect(llms).toContain('Link order: `ApolloLink.from([auth.link, new HttpLink({ uri })])`');
  expect(llms).toContain('Never put the refresh token in `localStorage`');
  expect(llms).toMatch(/Pick the mode by where the app runs: web with a backend → `createTokenHandlerTransport/);
  for (const file of listed.filter((file) => file !== 'index.md')) expect(llms).toContain(`/main/docs/${file}):`);
});
