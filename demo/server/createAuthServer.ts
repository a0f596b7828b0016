// From the server's own module: the testing entry's React helpers are no part of the demo server.
import type { SubscriptionServer } from '../../src/testing/attachSubscriptions.ts';
import { createTestAuthServer } from '../../src/testing/createTestAuthServer.ts';
import type { TestAuthServer, TestAuthServerOptions } from '../../src/testing/TestAuthServer.ts';
import type { TestAuthServerFaults } from '../../src/testing/faults.ts';
import type { TestAuthServerStats } from '../../src/testing/stats.ts';

/** Options of {@link createAuthServer}: those of `createTestAuthServer`, with the demo's defaults. */
export interface AuthServerOptions extends Omit<TestAuthServerOptions, 'clock'> {
  /** Access token lifetime in seconds. @defaultValue `Number(process.env.ACCESS_TOKEN_TTL) || 900` */
  accessTokenTtl?: number;
  /** Refresh token lifetime in seconds. @defaultValue `Number(process.env.REFRESH_TOKEN_TTL) || 2_592_000` */
  refreshTokenTtl?: number;
  /** Server clock in ms, used for `iat`/`exp` and for verification, so tests can skew it. @defaultValue `Date.now` */
  now?: () => number;
}

/** The demo server: `createTestAuthServer`'s server. */
export type AuthServer = TestAuthServer;
export type { SubscriptionServer, TestAuthServerFaults as AuthServerFaults, TestAuthServerStats as AuthServerStats };

/**
 * The demo's auth server: `createTestAuthServer` of `apollo-link-token-pair/testing`, with its lifetimes read
 * from `ACCESS_TOKEN_TTL` / `REFRESH_TOKEN_TTL` and a skewable `now`.
 *
 * @example
 * const server = createAuthServer({ authErrorStatus: 401 });
 * const url = await server.listen();
 * // ... fetch(url, ...)
 * await server.close();
 */
export function createAuthServer({ now, ...options }: AuthServerOptions = {}): AuthServer {
  return createTestAuthServer({
    ...options,
    accessTokenTtl: options.accessTokenTtl ?? (Number(process.env['ACCESS_TOKEN_TTL']) || 900),
    refreshTokenTtl: options.refreshTokenTtl ?? (Number(process.env['REFRESH_TOKEN_TTL']) || 2_592_000),
    ...(now && {
      clock: {
        now,
        setTimeout: (callback: () => void, delay: number) => setTimeout(callback, delay),
        clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      },
    }),
  });
}
