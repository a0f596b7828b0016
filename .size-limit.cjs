// Size limits per entry, minified and gzipped, peers external, jwt-decode (the one dependency) bundled in. Each limit
// sits just above the size measured when it was last set; docs/performance.md says what the core's bytes buy, and
// why the core's limit moved from 7.6 kB to 8.6 kB with the engine's parts (issue 37), to 9.4 kB with what
// issue 38 added, to 9.7 kB with the events the devtools read (issue 39, +268 B), and to 11.05 kB with every door
// into a session and the servers users already have (issues 45 and 46, +1,349 B). The broadcast store's row moved
// from 13.1 kB to 13.35 kB with the stored pair's format version, which the stores of an app's storage carry (+262 B),
// and to 13.55 kB with the submissions a page's going cuts off, kept for the other tabs and told to new ones (+216 B).
const peers = ['@apollo/client', 'graphql', 'graphql-ws', 'rxjs', 'react', 'react-dom'];
// The entries beside the core import it from ./index.js and ./internal.js: they are counted without it.
const withoutCore = (config) => ({ ...config, external: [...(config.external ?? []), './index.js', './internal.js'] });
// ./testing loads ./react when createTestSession is called (node:http and ws for listen() are not bundled).
const withoutCoreAndReact = (config) => ({
  ...config,
  external: [...(config.external ?? []), './index.js', './internal.js', './react.js'],
});
// ./devtools is the panel in development only: its row measures what a development build loads.
const inDevelopment = (config) => ({
  ...config,
  define: { ...config.define, 'process.env.NODE_ENV': '"development"' },
});

// A chunk of an app's build, without the chunks it loads (they are counted on their own).
const appChunk = (config) => ({ ...config, format: 'esm', external: [...(config.external ?? []), './*'] });

module.exports = [
  {
    // The least an app ships: the session, its link, the GraphQL transport and the memory store.
    name: 'core: createTokenAuth with the memory store',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createMemoryTokenStore }',
    limit: '11.05 kB',
    gzip: true,
    ignore: peers,
  },
  {
    // The same in a browser page, with the resume listeners of browserResume().
    name: 'core: createTokenAuth with the memory store and browserResume (a page)',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createMemoryTokenStore, browserResume }',
    limit: '11.2 kB',
    gzip: true,
    ignore: peers,
  },
  {
    // The core with the store that tabs share: the broadcast protocol, its lock and the shared store's queued calls.
    name: 'core: createTokenAuth with the broadcast store (tabs)',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createBroadcastTokenStore }',
    limit: '13.55 kB',
    gzip: true,
    ignore: peers,
  },
  {
    // A REST auth server's session: the core with createRestTransport in place of the GraphQL transport's calls, and
    // the cookie session's store it brings for a server that keeps the refresh token in its cookie.
    name: 'core: createTokenAuth with createRestTransport (a REST auth server)',
    path: 'dist/index.js',
    import: '{ createTokenAuth, createRestTransport }',
    limit: '13.1 kB',
    gzip: true,
    ignore: peers,
  },
  {
    // The React binding most apps use: the provider, the hook and the gate. From 1.65 kB to 1.75 kB with the state the
    // screens show, which shows a new user once the previous user's store reset is over (issue 47, 144 B); to 1.8 kB
    // with the chain probe's warning kept for refusals, not outages (issue 47, 24 B).
    name: './react, without the core',
    path: 'dist/react.js',
    import: '{ TokenAuthProvider, useAuth, AuthGate }',
    limit: '1.8 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The provider for client components that a server renders too (it creates the session in the browser).
    name: './react BrowserTokenAuthProvider, without the core',
    path: 'dist/react.js',
    import: '{ BrowserTokenAuthProvider, useAuth }',
    limit: '2 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The whole token handler: server code, in no browser bundle. From 7.8 kB to 8.9 kB with its parts (288 B) and
    // its sign-in doors and handler.adopt (806 B), to 9.3 kB with an upstream transport of the app's own (437 B);
    // docs/performance.md says what each part costs.
    name: './server, without the core (the token handler)',
    path: 'dist/server.js',
    limit: '9.3 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The devtools panel as an app loads it in development (size-limit builds for production otherwise).
    name: './devtools, without the core',
    path: 'dist/devtools.js',
    import: '{ TokenAuthDevtools }',
    limit: '3 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: (config) => inDevelopment(withoutCore(config)),
  },
  {
    // The same import in a production build: `() => null`, the panel's code dropped.
    name: './devtools in a production build, without the core',
    path: 'dist/devtools.js',
    import: '{ TokenAuthDevtools }',
    limit: '100 B',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The whole server-to-server session (createServiceAuth).
    name: './service, without the core',
    path: 'dist/service.js',
    limit: '900 B',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The whole graphql-ws client that follows the session.
    name: './ws, without the core',
    path: 'dist/ws.js',
    limit: '1.9 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCore,
  },
  {
    // The whole test kit (test-only: none of it reaches the rows above). From 7.7 kB to 9.6 kB with `serve`'s command
    // line (issue 40, about 1.7 kB: its usage, options and banner), which a bundle that imports only
    // createTestAuthServer drops. To 12.2 kB with the sign-in doors beyond the contract (issue 45, 2.6 kB: six
    // resolvers and their SDL, the one-time codes, the test identity provider), which every server has.
    name: './testing, without the core and ./react',
    path: 'dist/testing.js',
    limit: '12.3 kB',
    gzip: true,
    ignore: peers,
    modifyEsbuildConfig: withoutCoreAndReact,
  },
  // examples/vite-spa built for production by scripts/buildAppsForSize.mjs (npm run size runs it first): the app as
  // it is, which imports ./devtools, and the same app with ./devtools replaced by nothing. The script fails unless
  // both builds are the same byte for byte; the two rows show the figure. The panel that `?devtools` loads on
  // purpose is a chunk of its own (devtools-production.js), fetched only then. From 152.5 kB to 152.6 kB with
  // ./react's shown state (issue 47, 136 B); to 153.7 kB with Apollo Client's own RefetchEventManager and its two
  // sources, which the example turns on (docs/recipes.md, "Refetching when the app comes back"): Apollo's bytes,
  // not the package's (issue 47, 1.02 kB).
  {
    name: 'examples/vite-spa production build, ./devtools imported',
    path: 'test-output/app-builds/vite-spa-with-devtools/assets/index.js',
    limit: '153.7 kB',
    gzip: true,
    modifyEsbuildConfig: appChunk,
  },
  {
    name: 'examples/vite-spa production build, ./devtools not imported',
    path: 'test-output/app-builds/vite-spa-without-devtools/assets/index.js',
    limit: '153.7 kB',
    gzip: true,
    modifyEsbuildConfig: appChunk,
  },
];
