import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { describe, expect, it } from 'vitest';
import { createTokenAuth } from '../../src';
import { PING, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();

/** A client whose terminating link is Apollo's BatchHttpLink; every POST it makes is recorded as it went out. */
function batchingClient(uri: string) {
  // Only TOKEN_EXPIRED may start the refresh here: a 401 alone would start one through isUnauthenticatedError.
  const auth = createTokenAuth({ uri, refreshOnResume: false, isUnauthenticatedError: () => false });
  cleanups.push(() => auth.dispose());
  const posts: Array<{
    authorization: string;
    operations: Array<{ operationName: string; variables: { n: number } }>;
  }> = [];
  const recording: typeof fetch = (input, init) => {
    const body = JSON.parse(String(init?.body));
    if (Array.isArray(body))
      posts.push({ authorization: new Headers(init?.headers).get('authorization') ?? '', operations: body });
    return fetch(input, init);
  };
  const link = new BatchHttpLink({ uri, fetch: recording, batchMax: 10, batchInterval: 20 });
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
  return { auth, client, posts };
}

describe('BatchHttpLink against the demo server over HTTP', () => {
  for (const authErrorStatus of [401, 200]) {
    it(`a batch answered ${authErrorStatus} with an array of TOKEN_EXPIRED results: one refresh, each operation replayed once with the new token`, async () => {
      const server = await startDemoServer(cleanups, { authErrorStatus });
      const { auth, client, posts } = batchingClient(server.url);
      await auth.login('admin@demo.test', 'admin-pass');
      const old = `Bearer ${await auth.getAccessToken()}`;
      server.expireAllAccessTokens();

      const results = await Promise.all(
        [1, 2, 3].map((n) => client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' })),
      );

      expect(results.map((result) => result.data)).toEqual([{ ping: 1 }, { ping: 2 }, { ping: 3 }]);
      expect(server.stats.refreshCalls).toBe(1);
      expect(server.stats.tokenExpired).toBe(3);
      const fresh = `Bearer ${await auth.getAccessToken()}`;
      expect(fresh).not.toBe(old);
      // One batch of three with the expired token, then each operation exactly once more, with the new one.
      expect(posts[0]).toMatchObject({ authorization: old });
      expect(posts[0]!.operations.map((operation) => operation.variables.n).sort()).toEqual([1, 2, 3]);
      const replays = posts.slice(1);
      expect(replays.every((post) => post.authorization === fresh)).toBe(true);
      expect(replays.flatMap((post) => post.operations.map((operation) => operation.variables.n)).sort()).toEqual([
        1, 2, 3,
      ]);
      expect(server.stats.authorizationHeaders.filter((header) => header === old)).toHaveLength(1);
    });
  }

  it('the server answers a batch whose results are not all auth errors with 200, in order', async () => {
    const server = await startDemoServer(cleanups, { authErrorStatus: 401 });
    const token = (await server.issueTokens('admin@demo.test')).accessToken;
    const post = (authorization: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify([{ query: 'query($n:Int){ping(n:$n)}', variables: { n: 7 } }, { query: '{me{email}}' }]),
      });
    const ok = await post(`Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual([{ data: { ping: 7 } }, { data: { me: { email: 'admin@demo.test' } } }]);
    const refused = await post('');
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as Array<{ errors: Array<{ extensions: { code: string } }> }>;
    expect(body.map((result) => result.errors[0]!.extensions.code)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED']);
  });
});
