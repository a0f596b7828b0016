import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { RetryLink } from '@apollo/client/link/retry';
import { describe, expect, it } from 'vitest';
import { createTokenAuth, type TokenAuthOptions } from '../../src';
import type { AuthServer } from '../../demo/server/createAuthServer';
import { PING, ping, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();

// Short and without jitter, so the five attempts fit in a fraction of a second.
const retryLink = () =>
  new RetryLink({ delay: { initial: 20, max: 80, jitter: false }, attempts: { max: 5, retryIf: (error) => !!error } });

/** An HttpLink whose operations (not the auth mutations, which go through the session's own fetch) always meet a TOKEN_EXPIRED as HTTP 401. */
const alwaysExpired = (uri: string) =>
  new HttpLink({
    uri,
    fetch: async () =>
      new Response(
        JSON.stringify({ errors: [{ message: 'Access token expired', extensions: { code: 'TOKEN_EXPIRED' } }] }),
        {
          status: 401,
          headers: { 'content-type': 'application/json' },
        },
      ),
  });

async function setup(
  place: 'before' | 'after',
  http: (uri: string) => ApolloLink,
  options: Partial<TokenAuthOptions> = {},
) {
  const server: AuthServer = await startDemoServer(cleanups);
  const auth = createTokenAuth({ uri: server.url, ...options });
  cleanups.push(() => auth.dispose());
  const chain =
    place === 'before' ? [retryLink(), auth.link, http(server.url)] : [auth.link, retryLink(), http(server.url)];
  const client = new ApolloClient({ link: ApolloLink.from(chain), cache: new InMemoryCache() });
  await auth.login('admin@demo.test', 'admin-pass');
  server.resetStats();
  return { server, auth, client };
}

describe("auth.link with Apollo's RetryLink, on either side", () => {
  it.each(['before', 'after'] as const)(
    'a server that answers every operation TOKEN_EXPIRED (HTTP 401), RetryLink %s auth.link: one refresh for the operation, which fails with the refusal',
    async (place) => {
      const { server, client } = await setup(place, alwaysExpired);
      await expect(
        client.query({ query: PING, variables: { n: 1 }, fetchPolicy: 'network-only' }),
      ).rejects.toMatchObject({ statusCode: 401 });
      // Before: five refreshes for one operation with RetryLink in front (one per attempt).
      expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 0 });
    },
  );

  it.each(['before', 'after'] as const)(
    'one transient HTTP 500 on the refresh, RetryLink %s auth.link: the operation waits for the scheduled retry and succeeds',
    async (place) => {
      // A short floor and backoff keep this test quick; with the defaults the retry comes 5 s after the failure.
      const { server, client, auth } = await setup(place, (uri) => new HttpLink({ uri }), {
        refreshFloor: 200,
        retryDelay: 100,
      });
      server.expireAllAccessTokens();
      server.faults.failNext.push({ field: 'refreshToken', status: 500, body: 'oops' });
      const { data } = await ping(client, 7);
      expect(data).toEqual({ ping: 7 });
      // The 500 came before the resolver: the one refresh the server ran is the retry, and it rotated.
      expect(server.stats).toMatchObject({ refreshSuccesses: 1, reuseDetections: 0 });
      expect(auth.getState()).toMatchObject({ status: 'authenticated' });
      expect(auth.getState().retry).toBeUndefined();
    },
  );
});
