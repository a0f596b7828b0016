import { fileURLToPath } from 'node:url';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

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

const js = (input, external, name) => ({
  input: { [name]: input },
  external,
  plugins: [typescript({ tsconfig: './tsconfig.build.json' })],
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

const types = (input, external, name) => ({
  input: { [name]: input },
  external,
  plugins: [dts({ tsconfig: './tsconfig.build.json' })],
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
