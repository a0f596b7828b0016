import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { type AuthServer, type AuthServerOptions, createAuthServer } from '../../demo/server/createAuthServer';
import { createTokenAuth, type TokenAuthOptions } from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { clientFor } from './pingClient';

export { clientFor, PING, ping } from './pingClient';

/** A list of teardowns that run, newest first, after each test of the file that calls this. */
export function useCleanups(): Array<() => unknown> {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/**
 * Listens with a node:http `server` on 127.0.0.1, on an ephemeral port; `cleanups` close it and its connections.
 * Resolves its origin, `http://127.0.0.1:PORT`.
 */
export async function listenLocally(cleanups: Array<() => unknown>, server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A demo server listening on 127.0.0.1 on an ephemeral port, closed by `cleanups`. */
export async function startDemoServer(
  cleanups: Array<() => unknown>,
  options: AuthServerOptions = {},
): Promise<AuthServer> {
  const server = createAuthServer(options);
  await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  return server;
}

/**
 * The spec test server on 127.0.0.1 (an ephemeral port) and a session over HTTP with an Apollo client, both on one
 * test clock: the contract's 15-minute access tokens for both. `options` add to the session's; `cleanups` close
 * both.
 */
export async function startSpecSession(cleanups: Array<() => unknown>, options: Partial<TokenAuthOptions> = {}) {
  const clock = createTestClock();
  const server = createTestAuthServer({ clock });
  const url = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  const auth = createTokenAuth({ uri: url, clock, refreshOnResume: false, ...options });
  cleanups.push(() => auth.dispose());
  return { clock, server, auth, client: clientFor(auth.link, url) };
}
