// llms.txt (https://llmstxt.org), made from the docs: the README's opening and its rules for AI assistants, then
// a map of the guide in the sidebar's order (guides.ts), each page by its first heading and what it is for. The
// site's build writes it at the site's root; `npm run docs:llms` writes docs/llms.txt, the copy in the package.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUIDES, titleOf } from './guides';

const RAW = 'https://raw.githubusercontent.com/apollo-link-token-pair/apollo-link-token-pair/main';

/** The lines under a `## ` heading of `markdown`, up to the next one, without the blank lines at either end. */
function sectionOf(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section, which llms.txt is made from.`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

/** llms.txt for the repository at `root`, from its README.md and docs/. */
export function makeLlmsTxt(root: string): string {
  const docs = join(root, 'docs');
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\*\*/g, '');
  const [title, ...opening] = readme.slice(0, readme.indexOf('\n## ')).trim().split('\n\n');
  const rules = sectionOf(readme, 'For AI assistants').split('\n\n')[0]!;
  const map = GUIDES.map(({ text, pages }) => {
    const lines = pages.map(({ file, about }) =>
      // The home page is the README's content in a layout: an assistant reads the README.
      file === 'index.md'
        ? `- [README](${RAW}/README.md): ${about}`
        : `- [${titleOf(docs, file)}](${RAW}/docs/${file}): ${about}`,
    );
    return `## ${text}\n\n${lines.join('\n')}`;
  });
  return [
    title,
    opening[0]!.replace(/^/gm, '> '),
    ...opening.slice(1),
    `Rules to follow when writing code with this package:\n\n${rules}`,
    ...map,
    `## API reference\n\n- [API reference](${RAW}/docs/api/README.md): every exported symbol, generated from the TSDoc`,
  ]
    .join('\n\n')
    .concat('\n');
}
