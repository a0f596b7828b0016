import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { Observable, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTokenAuth } from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { ping, useCleanups } from '../helpers/overHttp';

// docs/migrating.md, "Where the other links go": an ErrorLink and a queue link on either side of auth.link, against
// the spec's test server over HTTP, both on one test clock with the contract's 15-minute access tokens.

const cleanups = useCleanups();
const MINUTE = 60_000;
const TEN = Array.from({ length: 10 }, (_, n) => n);

/** A queue link as apollo-link-queue writes one: while closed, operations wait; `open()` sends them on. */
class QueueLink extends ApolloLink {
  private closed = false;
  private held: Array<() => void> = [];

  close() {
    this.closed = true;
  }

  open() {
    this.closed = false;
    for (const send of this.held.splice(0)) send();
  }

  override request(operation: ApolloLink.Operation, forward: ApolloLink.ForwardFunction) {
    if (!this.closed) return forward(operation);
    return new Observable<ApolloLink.Result>((observer) => {
      let subscription: Subscription | undefined;
      this.held.push(() => (subscription = forward(operation).subscribe(observer)));
      return () => subscription?.unsubscribe();
    });
  }
}

/** A session signed in over HTTP, and a client whose chain puts `other` in front of auth.link or behind it. */
async function chainWith(other: ApolloLink, place: 'in front of' | 'behind') {
  const clock = createTestClock();
  const server = createTestAuthServer({ clock });
  const uri = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  const auth = createTokenAuth({ uri, clock, refreshOnResume: false });
  cleanups.push(() => auth.dispose());
  const links = place === 'in front of' ? [other, auth.link] : [auth.link, other];
  const client = new ApolloClient({
    link: ApolloLink.from([...links, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });
  await auth.login('admin@demo.test', 'admin-pass');
  return { clock, server, client };
}

describe('an ErrorLink on either side of auth.link', () => {
  it.each([
    ['in front of', 0],
    ['behind', 10],
  ] as const)('%s auth.link, it sees %i of the 10 TOKEN_EXPIRED that one refresh cured', async (place, seen) => {
    const codes: unknown[] = [];
    const errorLink = new ErrorLink(({ error }) => {
      codes.push(CombinedGraphQLErrors.is(error) ? error.errors[0]?.extensions?.['code'] : error);
    });
    const { server, client } = await chainWith(errorLink, place);
    server.expireAllAccessTokens();

    const results = await Promise.all(TEN.map((n) => ping(client, n)));

    expect(results.map((result) => result.data)).toEqual(TEN.map((n) => ({ ping: n })));
    expect(server.stats.refreshCalls).toBe(1);
    expect(codes).toEqual(Array.from({ length: seen }, () => 'TOKEN_EXPIRED'));
  });
});

describe('a queue link (offline) on either side of auth.link', () => {
  it.each([
    ['in front of', 0],
    ['behind', 10],
  ] as const)(
    '%s auth.link, 10 operations held while the token was renewed meet %i TOKEN_EXPIRED when sent',
    async (place, expired) => {
      const queue = new QueueLink();
      const { clock, server, client } = await chainWith(queue, place);
      queue.close();
      const held = Promise.all(TEN.map((n) => ping(client, n)));
      // The proactive refresh renews the pair before its 15 minutes are up; the first access token is then dead.
      await clock.advance(16 * MINUTE);
      expect(server.stats.refreshCalls).toBe(1);

      queue.open();

      expect((await held).map((result) => result.data)).toEqual(TEN.map((n) => ({ ping: n })));
      expect(server.stats.tokenExpired).toBe(expired);
      expect(server.stats.refreshCalls).toBe(1);
    },
  );
});
