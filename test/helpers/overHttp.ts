import { afterEach } from 'vitest';
import { type AuthServer, type AuthServerOptions, createAuthServer } from '../../demo/server/createAuthServer';

export { clientFor, PING, ping } from './pingClient';

/** A list of teardowns that run, newest first, after each test of the file that calls this. */
export function useCleanups(): Array<() => unknown> {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
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
