// tokenHandlerPlugin.ts: the token handler inside Vite's own server, for `vite` (development) and `vite preview`.
// Its routes (POST /auth/login, /auth/sign-in, /auth/refresh, /auth/logout) are then on the page's origin, as in
// production, so the session's cookie works the same in both. Any other request goes on to Vite.
import { createTokenHandler, toNodeHandler, type TokenHandlerOptions } from 'apollo-link-token-pair/server';
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';

export function tokenHandlerPlugin(options: TokenHandlerOptions): Plugin {
  // Made when a server starts, not when the config loads: `vite build` needs no secret.
  const mount = (server: ViteDevServer | PreviewServer) => {
    server.middlewares.use(toNodeHandler(createTokenHandler(options)));
  };
  return { name: 'apollo-link-token-pair:token-handler', configureServer: mount, configurePreviewServer: mount };
}
