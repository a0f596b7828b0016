import { gql, type TypedDocumentNode } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import { PING, startSpecSession, useCleanups } from '../helpers/overHttp';

// A newcomer's public operations (a sign-up, a catalogue) waited behind the renewal of a dead token, and failed with
// it (issue 38): `context: { skipTokenAuth: true }` lets an operation go out on its own.

const CATALOGUE: TypedDocumentNode<{ catalogue: string[] }> = gql`
  query Catalogue {
    catalogue
  }
`;

const cleanups = useCleanups();

// The refresh below hangs: it fails after 2 s by the session's clock, and its retry is a minute away, past what an
// operation waits for.
const start = () => startSpecSession(cleanups, { refreshTimeout: 2_000, retryDelay: 60_000 });

describe('an operation with skipTokenAuth needs no token', () => {
  it('is answered at once during a 2-second failing refresh, with no Authorization header', async () => {
    const { clock, server, auth, client } = await start();
    await auth.login('admin@demo.test', 'admin-pass');
    server.faults.hangRefresh = true;
    server.expireAllAccessTokens();
    // Refused as expired: the refresh starts, and hangs until its 2-s bound. The private query waits for it.
    const priv = client.query({ query: PING, variables: { n: 1 }, fetchPolicy: 'network-only' });
    let privSettled = false;
    void priv.then(
      () => (privSettled = true),
      () => (privSettled = true),
    );
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    const mark = server.stats.authorizationHeaders.length;

    const pub = await client.query({ query: CATALOGUE, context: { skipTokenAuth: true }, fetchPolicy: 'network-only' });
    expect(pub.data).toEqual({ catalogue: ['Membership', 'Day pass', 'Coaching'] });
    // Sent while the refresh hung: no header, and the private query still waits for a pair.
    expect(server.stats.authorizationHeaders.slice(mark)).toEqual(['']);
    expect(server.stats.refreshSuccesses).toBe(0);
    expect(privSettled).toBe(false);

    // The bound, then the second a late answer gets to be read (bounded's grace).
    await clock.advance(3_000);
    await expect(priv).rejects.toThrow(/refreshToken got no answer within 2000 ms/);
    // The refresh failed without a verdict: the public query still goes out at once, with no retry waited for.
    const again = await client.query({
      query: CATALOGUE,
      context: { skipTokenAuth: true },
      fetchPolicy: 'network-only',
    });
    expect(again.data?.catalogue).toHaveLength(3);
    expect(server.stats.refreshCalls).toBe(1);
  });

  it('signed out, it is sent as it is; a private query is refused by the server', async () => {
    const { server, client } = await start();
    const pub = await client.query({ query: CATALOGUE, context: { skipTokenAuth: true } });
    expect(pub.data?.catalogue).toContain('Day pass');
    await expect(client.query({ query: PING, variables: { n: 2 } })).rejects.toThrow(/Authorization/);
    expect(server.stats.authorizationHeaders).toEqual(['', '']);
  });

  it('a refused result is passed on, never replayed, and starts no refresh', async () => {
    const { server, auth, client } = await start();
    await auth.login('admin@demo.test', 'admin-pass');
    const token = await auth.getAccessToken();
    server.expireAllAccessTokens();
    // The app's own header on a skipping operation: the link neither replaces it nor replays on its refusal.
    const result = client.query({
      query: PING,
      variables: { n: 3 },
      context: { skipTokenAuth: true, headers: { authorization: `Bearer ${token}` } },
    });
    await expect(result).rejects.toThrow(/expired/i);
    expect(server.stats.refreshCalls).toBe(0);
    expect(server.stats.tokenExpired).toBe(1);
  });
});
