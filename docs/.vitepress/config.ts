// The documentation site: VitePress over docs/ (npm run docs:dev, docs:build, docs:preview). The guides are the
// Markdown files that read on GitHub as they are; docs/api/ is TypeDoc's output (npm run docs), listed in the
// sidebar from the files on disk. DOCS_BASE sets the path the site is served under: GitHub Pages serves it at
// /<repository>/ (.github/workflows/docs.yml), anything else at /.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DefaultTheme, defineConfig } from 'vitepress';
import { GUIDES, titleOf } from './guides';
import { makeLlmsTxt } from './llmsTxt';

const docs = fileURLToPath(new URL('..', import.meta.url));
const repository = 'https://github.com/apollo-link-token-pair/apollo-link-token-pair';
const ABOUT = new Map(GUIDES.flatMap(({ pages }) => pages.map(({ file, about }) => [file, about] as const)));

const page = (file: string, text?: string): DefaultTheme.SidebarItem => ({
  text: text ?? titleOf(docs, file),
  link: `/${file.replace(/\.md$/, '')}`,
});

/**
 * A heading's anchor as GitHub makes it (github-slugger): lower case, punctuation dropped, each space a hyphen. The
 * pages link to each other's headings by GitHub's anchors (`#token-handler-apollo-link-token-pairserver`,
 * `#upstream_unavailable`), so that the links work on both GitHub and the site.
 */
const githubSlug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** The order TypeDoc's kinds read in, and their names. */
const kinds: [folder: string, text: string][] = [
  ['functions', 'Functions'],
  ['classes', 'Classes'],
  ['interfaces', 'Interfaces'],
  ['type-aliases', 'Type aliases'],
  ['variables', 'Variables'],
];

/**
 * One module of the API reference (docs/api/<module>/): its README, a collapsed group per kind of symbol, and its
 * sub-modules (the root module's folder holds the subpath entries' folders).
 */
function apiModule(folder: string, name: string): DefaultTheme.SidebarItem {
  const items: DefaultTheme.SidebarItem[] = [];
  for (const [kind, text] of kinds) {
    const dir = join(docs, folder, kind);
    if (!existsSync(dir)) continue;
    const symbols = readdirSync(dir)
      .filter((file) => file.endsWith('.md'))
      .sort()
      .map((file) => page(`${folder}/${kind}/${file}`, file.replace(/\.md$/, '')));
    items.push({ text, collapsed: true, items: symbols });
  }
  const modules = readdirSync(join(docs, folder))
    .filter((entry) => !kinds.some(([kind]) => kind === entry))
    .filter((entry) => statSync(join(docs, folder, entry)).isDirectory())
    .sort()
    .map((entry) => apiModule(`${folder}/${entry}`, `${name}/${entry}`));
  return {
    text: name,
    link: `/${folder}/README`,
    collapsed: true,
    items: [...items, ...modules],
  };
}

/** docs/api/: the modules' index, then each module, from the files TypeDoc wrote. */
function apiSidebar(): DefaultTheme.SidebarItem {
  const modules = readdirSync(join(docs, 'api'))
    .filter((entry) => statSync(join(docs, 'api', entry)).isDirectory())
    .sort()
    .map((entry) => apiModule(`api/${entry}`, entry));
  return { text: 'API reference', collapsed: true, items: [page('api/README.md', 'Modules'), ...modules] };
}

export default defineConfig({
  title: 'apollo-link-token-pair',
  description:
    'Apollo Client 4 links for a JWT access/refresh token pair with single-use refresh tokens: single-flight ' +
    'refresh, replay-once on TOKEN_EXPIRED, proactive refresh.',
  base: process.env['DOCS_BASE'] ?? '/',
  lang: 'en',
  lastUpdated: false,
  // An icon in the page, so that no browser asks for a /favicon.ico the site does not have.
  head: [
    [
      'link',
      {
        rel: 'icon',
        href: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><text y='.9em' font-size='90'>🔑</text></svg>",
      },
    ],
  ],
  markdown: { anchor: { slugify: githubSlug } },
  // The local search's index of every page (about 500 kB, loaded when the search opens) is the one chunk past
  // Vite's 500 kB warning.
  vite: { build: { chunkSizeWarningLimit: 600 } },
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Guide', link: '/sessions' },
      { text: 'API', link: '/api/README' },
      { text: 'Errors', link: '/errors' },
      { text: 'Changelog', link: `${repository}/blob/main/CHANGELOG.md` },
    ],
    socialLinks: [{ icon: 'github', link: repository }],
    editLink: { pattern: `${repository}/edit/main/docs/:path`, text: 'Edit this page on GitHub' },
    outline: { level: [2, 3] },
    sidebar: [
      ...GUIDES.map(({ text, pages }) => ({ text, items: pages.map(({ file, label }) => page(file, label)) })),
      apiSidebar(),
    ],
  },
  // Each guide's line in guides.ts is its description, for search engines and link previews.
  transformPageData(pageData) {
    const about = ABOUT.get(pageData.relativePath);
    if (about) pageData.description = about[0]!.toUpperCase() + about.slice(1) + '.';
  },
  // llms.txt at the site's root, where assistants look for it, made from the docs (llmsTxt.ts).
  buildEnd(site) {
    writeFileSync(join(site.outDir, 'llms.txt'), makeLlmsTxt(join(docs, '..')));
  },
});
