import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

// Peers and dependencies stay imports: bundling a second copy of Apollo or of the session would split state.
const external = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

export default [
  {
    input: { index: 'src/index.ts' },
    external,
    plugins: [typescript({ tsconfig: './tsconfig.build.json' })],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', sourcemap: true },
      { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', sourcemap: true },
    ],
  },
  {
    input: { index: 'src/index.ts' },
    external,
    plugins: [dts({ tsconfig: './tsconfig.build.json' })],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts' },
      { dir: 'dist', format: 'es', entryFileNames: '[name].d.cts' },
    ],
  },
];
