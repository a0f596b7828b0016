import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenAuth,
  type RefreshEvent,
  type TokenAuthOptions,
  type TokenAuthState,
} from '../../src';
import { createTestAuthServer, createTestClock, type TestAuthServer, type TestClock } from '../../src/testing';

const ME = gql`
  query Me {
    me {
      id
    }
  }
`;
const disposals: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposals.splice(0)) dispose();
});

/** A session with default options but the clock, against the test server on the same clock. */
function rig(
  options: {
    accessTokenTtl?: number;
    auth?: Partial<TokenAuthOptions>;
    clock?: TestClock;
    server?: TestAuthServer;
  } = {},
) {
  const clock = options.clock ?? createTestClock();
  const server = options.server ?? createTestAuthServer({ clock, accessTokenTtl: options.accessTokenTtl });
  const refreshes: RefreshEvent[] = [];
  const states: TokenAuthState[] = [];
  const auth = createTokenAuth({
    uri: 'http://api.test/graphql',
    fetch: server.fetch,
    clock,
    refreshOnResume: false,
    onRefresh: (event) => refreshes.push(event),
    ...options.auth,
  });
  auth.subscribe(() => states.push(auth.getState()));
  disposals.push(() => auth.dispose());
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: 'http://api.test/graphql', fetch: server.fetch })]),
    cache: new InMemoryCache(),
  });
  // How long (on the test clock) a query took to be answered, advancing 100 ms at a time.
  const timeQuery = async () => {
    let answered: unknown;
    const started = clock.now();
    void client.query({ query: ME, fetchPolicy: 'network-only' }).then(
      (result) => (answered = result),
      (error: unknown) => (answered = error),
    );
    while (answered === undefined && clock.now() - started < 30_000) await clock.advance(100);
    return { took: clock.now() - started, answered };
  };
  return { clock, server, auth, client, refreshes, states, timeQuery };
}

describe('the refresh floor slows a storm, not a user', () => {
  it('one TOKEN_EXPIRED right after a rotation costs under 1 s', async () => {
    const { auth, server, refreshes, timeQuery } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    server.expireAllAccessTokens();
    const { took, answered } = await timeQuery();
    expect(answered).toMatchObject({ data: { me: { id: 'u_admin' } } });
    expect(took).toBeLessThan(1_000);
    expect(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`)).toEqual([
      'manual rotated',
      'token-expired rotated',
    ]);
  });

  it('one TOKEN_EXPIRED right after a restore costs under 1 s', async () => {
    const clock = createTestClock();
    const server = createTestAuthServer({ clock });
    // A stored pair whose access token died while the app was closed: the restore renews it.
    const dead = await server.issueTokens('admin@demo.test', { accessTokenTtl: 1 });
    await clock.advance(2_000);
    const { refreshes, timeQuery } = rig({ clock, server, auth: { store: createMemoryTokenStore(dead) } });
    await clock.advance(0);
    expect(refreshes.map(({ trigger }) => trigger)).toEqual(['restore']);
    server.expireAllAccessTokens();
    const { took, answered } = await timeQuery();
    expect(answered).toMatchObject({ data: { me: { id: 'u_admin' } } });
    expect(took).toBeLessThan(1_000);
  });

  it('a storm of TOKEN_EXPIRED still gets one refresh per 5 s, and the state says when the next goes', async () => {
    const { auth, server, refreshes, states, timeQuery } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    server.expireAllAccessTokens();
    await timeQuery();
    // Out of credit: the third refresh within a second waits for the floor, and the state shows the wait.
    server.expireAllAccessTokens();
    const { took } = await timeQuery();
    expect(took).toBeGreaterThanOrEqual(4_500);
    const waiting = states.find((state) => state.waiting);
    expect(waiting?.waiting).toMatchObject({ trigger: 'token-expired' });
    expect(auth.getState().waiting).toBeUndefined();
    expect(refreshes.filter(({ outcome }) => outcome === 'rotated')).toHaveLength(3);
  });

  it.each([3, 6, 10])(
    'renews %i-second tokens before they die, for two minutes, with no TOKEN_EXPIRED',
    async (seconds) => {
      const { clock, auth, server, refreshes, client } = rig({ accessTokenTtl: seconds });
      await auth.login('admin@demo.test', 'admin-pass');
      // A query every half second, none awaited: the clock must move for a query that waits on a timer.
      const answers: Array<Promise<unknown>> = [];
      for (let tick = 0; tick < 240; tick++) {
        answers.push(client.query({ query: ME, fetchPolicy: 'network-only' }));
        await clock.advance(500);
      }
      await clock.advance(10_000);
      expect(await Promise.all(answers)).toHaveLength(240);
      expect(server.stats.tokenExpired).toBe(0);
      expect(new Set(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`))).toEqual(
        new Set(['proactive rotated']),
      );
      // About one per 80 % of a life, never two within a second.
      expect(refreshes.length).toBeGreaterThanOrEqual(Math.floor(120 / seconds));
      expect(auth.getState()).toMatchObject({ status: 'authenticated' });
    },
  );
});

describe('onRefresh names the real trigger', () => {
  it('a retry after a refresh that got no answer reports `retry`, not `proactive`', async () => {
    const { clock, auth, server, refreshes } = rig({ auth: { retryDelay: 1_000 } });
    await auth.login('admin@demo.test', 'admin-pass');
    server.faults.failNext.push({ field: 'refreshToken', status: 503, body: 'busy' });
    await clock.advanceTo(auth.getState().refreshAt!);
    await clock.advance(6_000);
    expect(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`)).toEqual([
      'proactive failed',
      'retry rotated',
    ]);
  });

  it('./ws asking reports `socket`, the app asking `manual`', async () => {
    const { auth, refreshes } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh('socket');
    await auth.refresh();
    expect(refreshes.map(({ trigger }) => trigger)).toEqual(['socket', 'manual']);
  });
});
