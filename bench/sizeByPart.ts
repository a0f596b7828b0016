import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { markdownTable } from './helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The fields of a `.size-limit.cjs` entry the benchmark reads. */
interface SizeLimitEntry {
  readonly name: string;
  readonly path: string;
  readonly import?: string;
  readonly limit: string;
  readonly ignore: string[];
}

// The two core entries of `.size-limit.cjs`: their peers, imports and limits.
// The core's rows: those that import from dist/index.js (the other entries are measured without the core).
const ENTRIES = (createRequire(import.meta.url)('../.size-limit.cjs') as SizeLimitEntry[]).filter(
  (entry) => entry.import && entry.path === 'dist/index.js',
);
// The budgets, by the row's imports (issue 22 for the memory store, issue 10 for the broadcast store); the page's
// row, with browserResume, has none.
const BUDGETS: Record<string, number> = {
  '{ createTokenAuth, createMemoryTokenStore }': 6_000,
  '{ createTokenAuth, createBroadcastTokenStore }': 6_500,
};

// Each part, replaced by the least that keeps the bundle building: what is left out is what it costs.
const PARTS: Record<string, string> = {
  'core/session/TokenSession.ts': 'export const createTokenSession = () => ({});',
  'core/transports/createGraphQLTransport.ts': 'export const createGraphQLTransport = () => ({});',
  'core/stores/shareTokenStore.ts': 'export const shareTokenStore = (store) => store;',
  'core/stores/createBroadcastTokenStore.ts': 'export const createBroadcastTokenStore = () => ({});',
  'core/stores/openStore.ts':
    'export const openStore = () => ({}); export const withSeam = (s) => s; export const rotateWith = () => {}; export const OWNED = "";',
  'core/stores/storeIO.ts': 'export const storeIO = () => ({});',
  'link/TokenExpiredLink.ts': 'export class TokenExpiredLink {}',
  'link/TokenAuthLink.ts': 'export class TokenAuthLink {}; export const SENT_TOKEN_KEY = "";',
  'core/tokens/readTokenPair.ts':
    'export const readTokenPair = () => ({}); export const decodeAccessToken = () => ({}); export const isTokenPair = () => true;',
  'core/tokens/getTokenSchedule.ts': 'export const getTokenSchedule = () => null;',
  'core/environment/ResumeSource.ts': 'export const browserResume = () => undefined;',
  'core/stores/assertNotLocalStorage.ts': 'export const assertNotLocalStorage = () => {};',
  'core/environment/bounded.ts': 'export const bounded = (c, m, t, w) => w();',
  'core/session/RefreshTimer.ts': 'export const createRefreshTimer = () => ({});',
  'core/environment/lock.ts': 'export const createLock = () => (n, t) => t();',
  'errors (BrandedError and its three classes)': '',
};
// Parts whose stub takes more with it than their own code.
const LABELS: Record<string, string> = {
  'core/session/TokenSession.ts':
    '`src/core/session/TokenSession.ts` (the engine) and every part that only it imports: transport, store seam, timer, schedule, resume, memory store',
  'core/tokens/readTokenPair.ts': '`src/core/tokens/readTokenPair.ts` with the JWT decoder',
};
const ERROR_FILES = /core\/errors\/(BrandedError|AuthRequestError|AuthRejectedError|SessionEndedError)\.ts$/;
const ERROR_STUBS: Record<string, string> = {
  BrandedError: 'export class BrandedError extends Error {}',
  AuthRequestError: 'export class AuthRequestError extends Error {}',
  AuthRejectedError: 'export class AuthRejectedError extends Error {}',
  SessionEndedError: 'export class SessionEndedError extends Error {}',
};

/** One bundle: its gzipped bytes, and what each part adds to them. */
export interface BundleSize {
  readonly name: string;
  readonly limit: string;
  readonly budget: number;
  readonly minified: number;
  readonly gzipped: number;
  /** Gzipped bytes the bundle loses when the part is stubbed out, largest first. */
  readonly parts: ReadonlyArray<{ readonly part: string; readonly gzipped: number }>;
}

/** What {@link measureSizeByPart} found: the two budgeted bundles of the core. */
export type SizeByPart = readonly BundleSize[];

function stub(part: string): Plugin {
  return {
    name: 'stub',
    setup(builder) {
      if (part.startsWith('errors')) {
        builder.onLoad({ filter: ERROR_FILES }, ({ path }) => ({
          contents: ERROR_STUBS[path.replace(/^.*\/(\w+)\.ts$/, '$1')]!,
          loader: 'js',
        }));
      } else
        builder.onLoad({ filter: new RegExp(`src/${part.replace('.', '\\.')}$`) }, () => ({
          contents: PARTS[part]!,
          loader: 'js',
        }));
    },
  };
}

async function bundle(entry: SizeLimitEntry, part?: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: {
      contents: `export ${entry.import} from './src/index.ts';`,
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'entry.ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    external: entry.ignore.flatMap((peer) => [peer, `${peer}/*`]),
    plugins: part ? [stub(part)] : [],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

/**
 * Measures where the bytes of the two budgeted core bundles go: each part's cost is what the gzipped bundle
 * loses when that part alone is stubbed out (parts that share strings and code overlap, so the costs do not
 * add up to the total exactly).
 */
export async function measureSizeByPart(): Promise<SizeByPart> {
  const sizes: BundleSize[] = [];
  for (const entry of ENTRIES) {
    const whole = await bundle(entry);
    const parts = [];
    for (const part of Object.keys(PARTS)) {
      const without = await bundle(entry, part).catch(() => whole);
      const gzipped = whole.gzipped - without.gzipped;
      if (gzipped > 0) parts.push({ part, gzipped });
    }
    parts.sort((a, b) => b.gzipped - a.gzipped);
    const budget = BUDGETS[entry.import!] ?? 0;
    sizes.push({ name: entry.name, limit: entry.limit, budget, ...whole, parts });
  }
  return sizes;
}

/** One line for the console. */
export function sizeByPartSummary(sizes: SizeByPart): string {
  return sizes
    .map(({ name, gzipped, budget }) => `  ${name}: ${gzipped} B gzip (budget ${budget ? `${budget} B` : 'none'})`)
    .join('\n');
}

/** The section of `bench/RESULTS.md`. */
export function sizeByPartMarkdown(sizes: SizeByPart): string {
  return [
    '## 4. Size of the core, by part',
    '',
    "Each bundle is built from `src` with esbuild as size-limit does it (peers external, minified, gzip level 9). A part's cost is what the gzipped bundle loses when that part alone is replaced by a stub; parts share strings and code, so the costs overlap. `npm run size` measures the built `dist/` and is the figure CI checks against `.size-limit.cjs`; it comes out a little smaller than this measure of `src` (about 150 bytes for the core: the build is TypeScript's output, gzipped by size-limit).",
    '',
    markdownTable(
      ['Bundle', 'gzipped bytes (src)', 'budget (held on dist/)', 'CI limit'],
      sizes.map(({ name, gzipped, budget, limit }) => [name, gzipped, budget ? `${budget} B` : 'none', limit]),
    ),
    '',
    ...sizes.flatMap(({ name, gzipped, parts }) => [
      `### ${name}`,
      '',
      markdownTable(
        ['Part', 'gzipped bytes it adds', 'share'],
        parts.map(({ part, gzipped: cost }) => [
          LABELS[part] ?? (part.includes(' ') ? part : `\`src/${part}\``),
          cost,
          `${((100 * cost) / gzipped).toFixed(1)} %`,
        ]),
      ),
      '',
    ]),
  ].join('\n');
}
