// Writes docs/llms.txt, the copy of llms.txt in the package, from the README and the guide (npm run docs:llms);
// test/docs/llmsTxt.test.ts fails when it is behind them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLlmsTxt } from '../docs/.vitepress/llmsTxt';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(join(root, 'docs/llms.txt'), makeLlmsTxt(root));
console.log('docs/llms.txt written');
