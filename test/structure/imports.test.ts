import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The house as STYLE.md describes it. The core's layers from the bottom, then the links, then the entry; a file
// imports from its own layer or one below. Satellites (one folder per subpath entry) import the core only through
// its entries (src/index.ts, and src/internal/ for the plumbing apps never import) or src/shared/, and another satellite only through that one's entry (its index.ts).
//
// The stores sit below the transports: a transport may bring the store its mode needs (the token handler's page
// keeps the access token only: createTokenHandlerTransport returns createCookieSessionStore's store as
// TokenAuthTransport.store), so that an app imports that store only with that transport; no store knows a transport.
const LAYERS: readonly (readonly string[])[] = [
  ['shared/'],
  ['core/errors/'],
  ['core/environment/'],
  ['core/tokens/'],
  ['core/stores/'],
  ['core/transports/'],
  ['core/session/'],
  ['core/timeline/'],
  ['link/'],
  ['createTokenAuth.ts', 'index.ts', 'internal/'],
];
const SATELLITES = ['react/', 'service/', 'server/', 'ws/', 'testing/', 'doctor/', 'devtools/'];
/** What a satellite may import besides its own folder. */
const CORE_ENTRY = ['index.ts', 'internal/index.ts', 'shared/'];

/** Known edges (`from -> to`, paths under src/) that break the rules today. */
const KNOWN: readonly string[] = [];

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/));
}

/** Every import of a file, type-only ones (`import type`, `export type … from`, `import('…')` types) included. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((each) => each.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => resolveSpecifier(file, specifier) ?? []);
}

const name = (file: string) => relative(SRC, file).split('\\').join('/');
const edges = sourceFiles(SRC).flatMap((file) =>
  importsOf(file).map((target) => ({ from: name(file), to: name(target) })),
);
const known = (edge: { from: string; to: string }) => KNOWN.includes(`${edge.from} -> ${edge.to}`);
const show = (edge: { from: string; to: string }) => `${edge.from} -> ${edge.to}`;

const layerOf = (file: string) => LAYERS.findIndex((prefixes) => prefixes.some((prefix) => file.startsWith(prefix)));
const satelliteOf = (file: string) => SATELLITES.find((prefix) => file.startsWith(prefix));

/** Why an edge breaks the layering, or undefined. */
function breach(edge: { from: string; to: string }): string | undefined {
  const satellite = satelliteOf(edge.from);
  if (satellite) {
    const allowed =
      edge.to.startsWith(satellite) ||
      CORE_ENTRY.some((prefix) => edge.to.startsWith(prefix)) ||
      SATELLITES.some((other) => edge.to === `${other}index.ts`);
    return allowed
      ? undefined
      : `a satellite imports ${edge.to} (only its own folder, src/index.ts, src/shared/ or another satellite's index.ts)`;
  }
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (from < 0) return `${edge.from} is in no layer (add it to LAYERS)`;
  if (to < 0) return `the core imports ${edge.to}, which is no layer of the core`;
  return to > from
    ? `layer ${from} (${LAYERS[from]!.join(', ')}) imports layer ${to} (${LAYERS[to]!.join(', ')})`
    : undefined;
}

/** The circles among files: strongly connected components of two files or more, or a file importing itself. */
function circles(all: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of all) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || next.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('imports in src/', () => {
  it('reads the imports (the test would pass on nothing otherwise)', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'index.ts', to: 'createTokenAuth.ts' });
  });

  it('go from a layer to itself or one below, and from a satellite to the core only through its entry', () => {
    const breaches = edges
      .filter((edge) => !known(edge))
      .flatMap((edge) => {
        const why = breach(edge);
        return why ? [`${show(edge)}: ${why}`] : [];
      });
    expect(breaches).toEqual([]);
  });

  it('make no circle', () => {
    const kept = edges.filter((edge) => !known(edge));
    // Each circle as the edges among its files.
    const found = circles(kept).map((circle) =>
      kept.filter((edge) => circle.includes(edge.from) && circle.includes(edge.to)).map(show),
    );
    expect(found).toEqual([]);
  });

  it('allow-list only edges that exist and break a rule', () => {
    const stale = KNOWN.filter((entry) => {
      const edge = edges.find((each) => show(each) === entry);
      const inCircle = circles(edges).some(
        (circle) => circle.includes(edge?.from ?? '') && circle.includes(edge?.to ?? ''),
      );
      return !edge || (!breach(edge) && !inCircle);
    });
    expect(stale).toEqual([]);
  });
});
