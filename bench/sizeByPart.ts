import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { markdownTable } from './helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The core's size-limit entry: its peers, its import and its budget.
const CORE_ENTRY = (createRequire(import.meta.url)('../.size-limit.cjs') as SizeLimitEntry[])[0]!;
// As size-limit counts them: peers external, dependencies (jwt-decode) bundled, minified, gzip level 9.
const PEERS = CORE_ENTRY.ignore;
const CORE_IMPORT = `export ${CORE_ENTRY.import} from './src/index.ts';`;
const BUDGET = parseLimit(CORE_ENTRY.limit);
// Every part the core bundles except the session engine (`TokenSession.ts`) and `createTokenAuth`, which wires
// them together: what any client of this contract ships before it holds any token state.
const PARTS_IMPORT = [
  "export { TokenAuthLink, TokenExpiredLink, isTokenExpiredError, createMemoryTokenStore, systemClock, createLock } from './src/index.ts';",
  "export { AuthRequestError, AuthRejectedError, SessionEndedError, getTokenSchedule } from './src/index.ts';",
  "export { postAuthMutation } from './src/core/postAuthMutation.ts';",
  "export { readTokenPair } from './src/core/readTokenPair.ts';",
  "export { RefreshTimer } from './src/core/RefreshTimer.ts';",
  "export { assertNotLocalStorage } from './src/core/createSplitTokenStore.ts';",
  "export * from './src/core/authDocuments.ts';",
].join('\n');

/** The fields of a `.size-limit.cjs` entry the benchmark reads. */
interface SizeLimitEntry {
  readonly import: string;
  readonly limit: string;
  readonly ignore: string[];
}

// A size-limit limit in bytes: its kB is 1000 bytes.
function parseLimit(limit: string): number {
  const match = /^\s*([\d.]+)\s*(kB|B)\s*$/.exec(limit);
  if (!match) throw new Error(`unsupported size-limit limit: ${limit}`);
  return Number(match[1]) * (match[2] === 'kB' ? 1000 : 1);
}

/** One bundle: its minified and gzipped bytes, and the minified bytes each source file contributes. */
export interface BundleSize {
  readonly minified: number;
  readonly gzipped: number;
  readonly parts: ReadonlyArray<{ readonly file: string; readonly minified: number }>;
}

/** What {@link measureSizeByPart} found. */
export interface SizeByPart {
  readonly core: BundleSize;
  readonly withoutEngine: BundleSize;
  readonly budget: number;
}

async function bundle(contents: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    outfile: 'out.js',
    external: PEERS.flatMap((peer) => [peer, `${peer}/*`]),
    logLevel: 'error',
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.values(result.metafile.outputs)[0]!.inputs;
  const parts = Object.entries(inputs)
    .map(([file, { bytesInOutput }]) => ({ file: file.replace(/^node_modules\/([^/]+)\/.*$/, '$1 (dependency)'), minified: bytesInOutput }))
    .filter((part) => part.minified > 0)
    .sort((a, b) => b.minified - a.minified);
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, parts };
}

/**
 * Measures where the core's bytes go: the `createTokenAuth` + `createMemoryTokenStore` bundle by source file,
 * and the same parts without the session engine.
 */
export async function measureSizeByPart(): Promise<SizeByPart> {
  return { core: await bundle(CORE_IMPORT), withoutEngine: await bundle(PARTS_IMPORT), budget: BUDGET };
}

/** One line for the console. */
export function sizeByPartSummary({ core, withoutEngine, budget }: SizeByPart): string {
  return `  core ${core.gzipped} B gzip (${core.minified} B minified); without the session engine ${withoutEngine.gzipped} B; budget ${budget} B`;
}

/** The section of `bench/RESULTS.md`. */
export function sizeByPartMarkdown({ core, withoutEngine, budget }: SizeByPart): string {
  const share = (minified: number) => `${((100 * minified) / core.minified).toFixed(1)} %`;
  return [
    '## 4. Size of the core, by part',
    '',
    "`import { createTokenAuth, createMemoryTokenStore } from 'apollo-link-token-pair'` bundled from `src` with esbuild as size-limit does it (peers external, jwt-decode bundled, minified, gzip level 9). `npm run size` measures the built `dist/` and is the figure CI checks; the two differ by a few bytes.",
    '',
    markdownTable(
      ['Source file', 'minified bytes', 'share'],
      core.parts.map((part) => [`\`${part.file}\``, part.minified, share(part.minified)]),
    ),
    '',
    markdownTable(
      ['Bundle', 'minified bytes', 'gzipped bytes', `budget ${budget} B`],
      [
        ['core: `createTokenAuth` + `createMemoryTokenStore`', core.minified, core.gzipped, core.gzipped <= budget ? 'met' : 'over'],
        [
          'every part of the core except the session engine (`TokenSession.ts`, `createTokenAuth.ts`)',
          withoutEngine.minified,
          withoutEngine.gzipped,
          withoutEngine.gzipped <= budget ? 'met' : 'over',
        ],
      ],
    ),
  ].join('\n');
}
