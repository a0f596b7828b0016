// Budgets of issue 10: minified and gzipped, peers external. jwt-decode, a dependency, counts.
const peers = ['@apollo/client', 'graphql', 'rxjs', 'react', 'react-dom'];
// The entries beside the core import it from ./index.js: they are counted without it.
const withoutCore = (config) => ({ ...config, external: [...(config.external ?? []), './index.js'] });

module.exports = [
  {
    name: 'core: createTokenAuth with the memory store',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createMemoryTokenStore }',
    limit: '5 kB',
    gzip: true,
    ignore: peers,
  },
  {
    name: 'core: createTokenAuth with the broadcast store (tabs)',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createBroadcastTokenStore }',
    limit: '6.5 kB',
    gzip: true,
    ignore: peers,
  },
  { name: './react, without the core', path: 'dist/react.js', limit: '1 kB', gzip: true, ignore: peers, modifyEsbuildConfig: withoutCore },
  { name: './service, without the core', path: 'dist/service.js', limit: '1 kB', gzip: true, ignore: peers, modifyEsbuildConfig: withoutCore },
];
