import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { createTokenHandler, type TokenHandler, toNodeHandler } from '../src/server/index.ts';
import { type AuthServer, createAuthServer } from './server/createAuthServer.ts';
import { createLab, type Lab } from './server/createLab.ts';
import { signIns } from './server/signIns.ts';

/** Where the demo runs, and how to stop it. */
export interface Demo {
  /** The page to open. */
  readonly url: string;
  /** The auth server behind the app's `/graphql` and `/control` proxy. */
  readonly server: AuthServer;
  /** The token handler at `/auth`, on the app's origin: it keeps the refresh token in an `HttpOnly` cookie. */
  readonly handler: TokenHandler;
  /** The lab in front of the server (`/graphql` and `/control/*`, for the page and the token handler alike). */
  readonly lab: Lab;
  close(): Promise<void>;
}

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /**
   * The port of the app: taken exactly (an error when it is in use), or, left out, 5173 or the next free one
   * after it, as Vite does. `0`: any free port.
   */
  port?: number;
  /** Access token lifetime in seconds. @defaultValue `ACCESS_TOKEN_TTL` or 900 */
  accessTokenTtl?: number;
  /** ms between two events of the ticker subscription. @defaultValue `500` */
  tickerInterval?: number;
}

/**
 * Starts the spec's server with the lab in front of it, and the Vite dev server of the demo app, which serves
 * `/graphql` and `/control` through the lab (proxying subscriptions to the server) and the token handler at
 * `/auth`, so the app, the handler and the API share one origin.
 */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const server = createAuthServer({ accessTokenTtl: options.accessTokenTtl, tickerInterval: options.tickerInterval });
  const upstream = await server.listen(0, '127.0.0.1');
  const target = new URL(upstream).origin;
  const lab = createLab(server);
  // A new secret per start: the cookies of an earlier run (whose server forgot its sessions) do not open.
  const handler = createTokenHandler({
    uri: upstream,
    secret: randomBytes(32),
    // The handler calls the server through the lab too: "down", "slow refresh" and the counters apply to it.
    fetch: (input, init) => lab(new Request(input, init)),
    // The page's sign-up, code and second-factor forms name these doors; the documents stay here.
    signIns,
    onError: (error) => console.warn(`[token handler] ${error.message}`),
  });
  const labRoutes = Object.assign((request: Request) => lab(request), { basePath: undefined });
  const tokenHandler: Plugin = {
    name: 'token-handler',
    configureServer: (dev) => {
      dev.middlewares.use(toNodeHandler(handler));
      // HTTP only: the WebSocket upgrade of /graphql goes through the proxy below.
      dev.middlewares.use('/graphql', toNodeHandler(labRoutes));
      dev.middlewares.use('/control', toNodeHandler(labRoutes));
    },
  };
  const vite = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('./app/', import.meta.url)),
    plugins: [react(), tokenHandler],
    // The app imports the package by name, as a user would; here the name points at the sources.
    resolve: {
      alias: [
        {
          find: /^apollo-link-token-pair\/react$/,
          replacement: fileURLToPath(new URL('../src/react/index.ts', import.meta.url)),
        },
        {
          find: /^apollo-link-token-pair\/devtools$/,
          replacement: fileURLToPath(new URL('../src/devtools/index.ts', import.meta.url)),
        },
        {
          find: /^apollo-link-token-pair\/ws$/,
          replacement: fileURLToPath(new URL('../src/ws/index.ts', import.meta.url)),
        },
        { find: /^apollo-link-token-pair$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
      ],
    },
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port: options.port ?? 5173,
      strictPort: options.port !== undefined && options.port !== 0,
      // `ws`: graphql-ws subscriptions upgrade at the same /graphql.
      proxy: { '/graphql': { target, ws: true }, '/control': target },
    },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${vite.config.server.port}/`;
  return {
    url,
    server,
    handler,
    lab,
    async close() {
      await vite.close();
      await server.close();
    },
  };
}
