// The picture of the engine's parts (docs/structure/session.dot, and its .png in docs/contributing.md) is drawn from
// the code's imports by `npx tsx scripts/draw-structure.ts`: every import between the parts, in both directions of
// a dependency (an interface one part needs from another is a module of its own), is an arrow of the committed one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawSession } from '../../scripts/structure/drawSession';

const ROOT = join(__dirname, '../..');
const arrows = (dot: string) =>
  dot
    .split('\n')
    .filter((line) => line.includes('->'))
    .sort();

describe('the picture of the engine’s parts', () => {
  const drawn = arrows(drawSession(join(ROOT, 'src/core/session')));

  it('has every import between the parts as an arrow: run `npx tsx scripts/draw-structure.ts` when this fails', () => {
    expect(arrows(readFileSync(join(ROOT, 'docs/structure/session.dot'), 'utf8'))).toEqual(drawn);
  });

  it('shows what the refresher and the restorer need from the shell, and the shell handing it over', () => {
    for (const host of ['RefresherHost', 'RestorerHost']) {
      expect(drawn).toContainEqual(expect.stringContaining(`"createTokenSession" -> "${host}"`));
      expect(drawn.some((arrow) => arrow.includes(`-> "${host}"`) && !arrow.includes('createTokenSession'))).toBe(true);
    }
  });
});
