import { fileURLToPath } from 'node:url';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';
import { transform } from 'esbuild';

const src = fileURLToPath(new URL('./src/', import.meta.url));
// Entries beside the core refer to it through `./index`, never through a copy of it; `testing` refers to
// `react` through `./react` in the same way (two copies of its context would not see each other).
const SATELLITES = ['react', 'service', 'server', 'ws', 'testing', 'doctor'];
const satelliteOf = (id) => SATELLITES.find((name) => id.startsWith(`${src}${name}/`));

// Peers and dependencies stay imports: bundling a second copy of Apollo or of the session would split state.
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

// A satellite may import only what the root entry (or another satellite's index) exports: CI loads every
// built entry to check it.
// `src/shared/` holds small helpers that are no part of the core's API: each satellite that uses one bundles it.
const isSharedHelper = (id) => id.startsWith(`${src}shared/`);
const satelliteExternal = (self) => (id) =>
  isBare(id) || (id.startsWith(src) && !isSharedHelper(id) && satelliteOf(id) !== self);
const toCore = (extension) => (id) => (id.startsWith(src) ? `./${satelliteOf(id) ?? 'index'}.${extension}` : id);

// The engine's own members (the links' view of the session, the session record, the store seam and its reads
// and writes, the timer, the floor, the checks), which no app, storage, message or other entry ever sees: the
// core's bundle renames them short, as a minifier cannot (it must keep every property name). Each name here is
// used in the core for nothing else; the satellites keep theirs (server code has a `rotate` and a `report` of
// its own, `./react` a `current`).
const INTERNAL =
  /^(current|recover|check|epoch|refreshing|revoking|sent|read|write|queued|put|notify|refusals|checked|schedule|orphan|adopted|volatile|adopt|worth|credit|last|load|save|rotate|report|cancel|since)$/;
const renameInternal = {
  name: 'rename-internal',
  async renderChunk(code) {
    const { code: renamed, map } = await transform(code, { mangleProps: INTERNAL, sourcemap: true });
    return { code: renamed, map };
  },
};

const js = (input, external, name) => ({
  input: { [name]: input },
  external,
  plugins: [typescript({ tsconfig: './tsconfig.build.json' }), ...(name === 'index' ? [renameInternal] : [])],
  output: [
    { dir: 'dist', format: 'es', entryFileNames: '[name].js', sourcemap: true, paths: toCore('js') },
    // Dynamic imports become `require` in CJS: jest without --experimental-vm-modules refuses `import()` there.
    {
      dir: 'dist',
      format: 'cjs',
      entryFileNames: '[name].cjs',
      sourcemap: true,
      paths: toCore('cjs'),
      dynamicImportInCjs: false,
    },
  ],
});

// The renamed members stay internal: a public type that names one (a new option or method called `report`, say)
// would be renamed in the code and not in the types, so the build fails on it instead.
const keepInternal = {
  name: 'keep-internal',
  renderChunk(code) {
    const member = new RegExp(`^\\s+(?:readonly )?(${INTERNAL.source.slice(2, -2)})\\??[:(<]`, 'm').exec(code);
    if (member)
      throw new Error(
        `"${member[1]}" is a member of a public type of the core, and rollup.config.mjs renames it (INTERNAL): rename the member, or take it off INTERNAL.`,
      );
    return null;
  },
};

const types = (input, external, name) => ({
  input: { [name]: input },
  external,
  plugins: [dts({ tsconfig: './tsconfig.build.json' }), ...(name === 'index' ? [keepInternal] : [])],
  output: [
    { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', paths: toCore('js') },
    { dir: 'dist', format: 'es', entryFileNames: '[name].d.cts', paths: toCore('cjs') },
  ],
});

export default [
  js('src/index.ts', isBare, 'index'),
  types('src/index.ts', isBare, 'index'),
  ...SATELLITES.flatMap((name) => [
    js(`src/${name}/index.ts`, satelliteExternal(name), name),
    types(`src/${name}/index.ts`, satelliteExternal(name), name),
  ]),
];
