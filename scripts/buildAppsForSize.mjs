// Builds examples/vite-spa for production twice, for `npm run size`: as it is (it imports the devtools panel), and
// with `apollo-link-token-pair/devtools` replaced by a component that renders nothing, as if the app had never
// imported it. A bundler must drop the panel from the first: both builds' code must be the same, byte for byte,
// or this fails. The `?devtools` panel, loaded on purpose, is a chunk of its own in both, fetched only then.
//
//   node scripts/buildAppsForSize.mjs   (after npm run build && npm run examples:install)
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '..');
const app = join(root, 'examples/vite-spa');
const out = join(root, 'test-output/app-builds');
if (!existsSync(join(app, 'node_modules/apollo-link-token-pair/dist/devtools.js'))) {
  console.error(
    'examples/vite-spa has no built copy of the package with ./devtools: run `npm run build && npm run examples:install` first',
  );
  process.exit(1);
}
const fromApp = createRequire(join(app, 'package.json'));
const { build } = await import(pathToFileURL(fromApp.resolve('vite')).href);
const { default: react } = await import(pathToFileURL(fromApp.resolve('@vitejs/plugin-react')).href);

// The same component type and name the real entry exports in production: a function that renders nothing.
const nothing = join(out, 'no-devtools.js');
mkdirSync(out, { recursive: true });
writeFileSync(nothing, 'export const TokenAuthDevtools = () => null;\n');

async function buildInto(name, alias) {
  const outDir = join(out, name);
  await build({
    root: app,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { alias },
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: 'assets/[name].js', chunkFileNames: 'assets/[name].js' } },
    },
  });
  const assets = join(outDir, 'assets');
  return Object.fromEntries(
    readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => [file, readFileSync(join(assets, file))]),
  );
}

const withPanel = await buildInto('vite-spa-with-devtools', []);
const without = await buildInto('vite-spa-without-devtools', [
  { find: /^apollo-link-token-pair\/devtools$/, replacement: nothing },
]);
const describe = (files) =>
  Object.entries(files)
    .map(([file, bytes]) => `${file} ${bytes.length} B (${gzipSync(bytes).length} B gzipped)`)
    .join(', ');
console.log(`vite-spa, the devtools imported:     ${describe(withPanel)}`);
console.log(`vite-spa, the devtools not imported: ${describe(without)}`);
const same =
  Object.keys(withPanel).join() === Object.keys(without).join() &&
  Object.entries(withPanel).every(([file, bytes]) => bytes.equals(without[file]));
if (!same) {
  console.error(
    'The production build with the devtools imported differs from the one without: the panel did not drop out.',
  );
  process.exit(1);
}
