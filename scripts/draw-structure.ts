/**
 * Draws the engine's parts: the modules of src/core/session and their imports, from the code's own import
 * declarations (type-only imports dashed), into docs/structure/session.dot and, where Graphviz's `dot` is on the
 * PATH (Debian: `apt-get install graphviz`), docs/structure/session.svg and session.png.
 *
 *   npx tsx scripts/draw-structure.ts
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawSession } from './structure/drawSession.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SESSION = join(ROOT, 'src/core/session');
const OUT = join(ROOT, 'docs/structure/session');

writeFileSync(`${OUT}.dot`, drawSession(SESSION));
try {
  execFileSync('dot', ['-Tsvg', `${OUT}.dot`, '-o', `${OUT}.svg`]);
  execFileSync('dot', ['-Tpng', '-Gdpi=110', `${OUT}.dot`, '-o', `${OUT}.png`]);
  console.log(`wrote ${OUT}.dot, .svg and .png`);
} catch {
  console.log(`wrote ${OUT}.dot (no Graphviz \`dot\` here: apt-get install graphviz for the pictures)`);
}
