import { fileURLToPath } from 'node:url';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const src = fileURLToPath(new URL('./src/', import.meta.url));
// The core is built from two entries, the root and `./internal` (the plumbing the other entries share with it, no
// public API), in one build: the modules both use are emitted once, in a chunk both import, so that what the root
// notes (the registry of sessions) is what `./internal` reads.
const CORE = { index: 'src/index.ts', internal: 'src/internal/index.ts' };
// Entries beside the core refer to it through `./index` and `./internal`, never through a copy of it; `testing`
// refers to `react` through `./react` in the same way (two copies of its context would not see each other).
const SATELLITES = ['react', 'service', 'server', 'ws', 'testing', 'doctor', 'devtools'];
// `./devtools/production` is the devtools' second entry: the same panel, in every build (`./devtools` is nothing
// in production). Each of the two bundles the panel: neither loads the other.
const MORE_ENTRIES = { 'devtools-production': { input: 'src/devtools/production/index.ts', satellite: 'devtools' } };
const satelliteOf = (id) => SATELLITES.find((name) => id.startsWith(`${src}${name}/`));

// Peers and dependencies stay imports: bundling a second copy of Apollo or of the session would split state.
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

// A satellite may import only what the root entry, `./internal` (from `src/internal/`) or another satellite's index
// exports: CI loads every built entry to check it.
// `src/shared/` holds small helpers that are no part of the core's API: each satellite that uses one bundles it.
const isSharedHelper = (id) => id.startsWith(`${src}shared/`);
const satelliteExternal = (self) => (id) =>
  isBare(id) || (id.startsWith(src) && !isSharedHelper(id) && satelliteOf(id) !== self);
const isInternal = (id) => id.startsWith(`${src}internal/`);
const entryOf = (id) => satelliteOf(id) ?? (isInternal(id) ? 'internal' : 'index');
const toCore = (extension) => (id) => (id.startsWith(src) ? `./${entryOf(id)}.${extension}` : id);

const js = (input, external) => ({
  input,
  external,
  plugins: [typescript({ tsconfig: './tsconfig.build.json' })],
  output: [
    {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'shared-[hash].js',
      sourcemap: true,
      paths: toCore('js'),
    },
    // Dynamic imports become `require` in CJS: jest without --experimental-vm-modules refuses `import()` there.
    {
      dir: 'dist',
      format: 'cjs',
      entryFileNames: '[name].cjs',
      chunkFileNames: 'shared-[hash].cjs',
      sourcemap: true,
      paths: toCore('cjs'),
      dynamicImportInCjs: false,
    },
  ],
});

const types = (input, external) => ({
  input,
  external,
  plugins: [dts({ tsconfig: './tsconfig.build.json' })],
  output: [
    { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', paths: toCore('js') },
    { dir: 'dist', format: 'es', entryFileNames: '[name].d.cts', paths: toCore('cjs') },
  ],
});

export default [
  js(CORE, isBare),
  // Types hold no state: each of the two is built whole, the root's as an app reads it, without a chunk that
  // would make its types import `./internal`.
  types({ index: CORE.index }, isBare),
  types({ internal: CORE.internal }, isBare),
  ...SATELLITES.flatMap((name) => [
    js({ [name]: `src/${name}/index.ts` }, satelliteExternal(name)),
    types({ [name]: `src/${name}/index.ts` }, satelliteExternal(name)),
  ]),
  ...Object.entries(MORE_ENTRIES).flatMap(([name, { input, satellite }]) => [
    js({ [name]: input }, satelliteExternal(satellite)),
    types({ [name]: input }, satelliteExternal(satellite)),
  ]),
];
