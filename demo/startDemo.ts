import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { createTokenHandler, type TokenHandler, toNodeHandler } from '../src/server/index.ts';
import { type AuthServer, createAuthServer } from './server/createAuthServer.ts';

/** Where the demo runs, and how to stop it. */
export interface Demo {
  /** The page to open. */
  readonly url: string;
  /** The auth server behind the app's `/graphql` and `/control` proxy. */
  readonly server: AuthServer;
  /** The token handler at `/auth`, on the app's origin: it keeps the refresh token in an `HttpOnly` cookie. */
  readonly handler: TokenHandler;
  close(): Promise<void>;
}

/**
 * Starts the spec's server and the Vite dev server of the demo app, which proxies `/graphql` and `/control` to
 * it and serves the token handler at `/auth`, so the app, the handler and the API share one origin.
 */
export async function startDemo(options: { port?: number; accessTokenTtl?: number } = {}): Promise<Demo> {
  const server = createAuthServer({ accessTokenTtl: options.accessTokenTtl });
  const upstream = await server.listen(0, '127.0.0.1');
  const target = new URL(upstream).origin;
  // A new secret per start: the cookies of an earlier run (whose server forgot its sessions) do not open.
  const handler = createTokenHandler({ uri: upstream, secret: randomBytes(32), onError: (error) => console.warn(`[token handler] ${error.message}`) });
  const tokenHandler: Plugin = {
    name: 'token-handler',
    configureServer: (dev) => void dev.middlewares.use(toNodeHandler(handler)),
  };
  const vite = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('./app/', import.meta.url)),
    plugins: [react(), tokenHandler],
    // The app imports the package by name, as a user would; here the name points at the sources.
    resolve: {
      alias: [
        { find: /^apollo-link-token-pair\/react$/, replacement: fileURLToPath(new URL('../src/react/index.ts', import.meta.url)) },
        { find: /^apollo-link-token-pair\/ws$/, replacement: fileURLToPath(new URL('../src/ws/index.ts', import.meta.url)) },
        { find: /^apollo-link-token-pair$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
      ],
    },
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port: options.port ?? 5173,
      strictPort: options.port !== 0 && options.port !== undefined,
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
    async close() {
      await vite.close();
      await server.close();
    },
  };
}
