// @vitest-environment happy-dom
import {
  ApolloClient,
  ApolloLink,
  gql,
  HttpLink,
  InMemoryCache,
  type OperationVariables,
  type TypedDocumentNode,
} from '@apollo/client';
import {
  ApolloProvider,
  type QueryRef,
  useApolloClient,
  useBackgroundQuery,
  useFragment,
  useQuery,
  useReadQuery,
  useSuspenseQuery,
} from '@apollo/client/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode, StrictMode, Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, shareTokenStore, type TokenAuth, type TokenStore } from '../../src';
import { TokenAuthProvider, useAuth } from '../../src/react';
import { createTestAuthServer, createTestClock, type TestAuthServer, type TestClock } from '../../src/testing';
import { PING, useCleanups } from '../helpers/overHttp';
import { recordingFetch } from '../helpers/recordingFetch';

const cleanups = useCleanups();
// Registered after useCleanups, so it runs before it (afterEach hooks run in reverse): React unmounts first.
afterEach(cleanup);

type Clubs = { clubs: Array<{ id: string; name: string }> };
type Me = { me: { id: string; email: string } };
const CLUBS: TypedDocumentNode<Clubs> = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;
const ME: TypedDocumentNode<Me> = gql`
  query Me {
    me {
      id
      email
    }
  }
`;
const EMAIL: TypedDocumentNode<{ email: string }> = gql`
  fragment Email on User {
    email
  }
`;

/** Any text of the admin's: its email, its clubs. */
const ADMIN_TEXT = /admin@demo\.test|Downtown Club|Harbor Club/;
const clubNames = (data: Clubs) => data.clubs.map((club) => club.name).join(', ');

/** One component per Apollo hook, none behind an AuthGate: each renders the user's data, else `error` or `-`. */
const hooks: Record<string, { screen: () => ReactNode; operations: string[]; signedOut: string; cashier: string }> = {
  useQuery: {
    screen: function WithQuery() {
      const { data, error } = useQuery(CLUBS);
      return <p data-testid="screen">{data ? clubNames(data) : error ? 'error' : '-'}</p>;
    },
    operations: ['Clubs'],
    signedOut: 'error',
    cashier: 'Uptown Club',
  },
  useSuspenseQuery: {
    screen: function WithSuspenseQuery() {
      const { data, error } = useSuspenseQuery(ME, { errorPolicy: 'all' });
      return <p data-testid="screen">{data?.me ? data.me.email : error ? 'error' : '-'}</p>;
    },
    operations: ['Me'],
    signedOut: 'error',
    cashier: 'cashier@demo.test',
  },
  'useSuspenseQuery, its error thrown to a boundary': {
    screen: function WithSuspenseQueryThrowing() {
      return (
        <Boundary>
          <Suspense fallback={<p data-testid="screen">suspended</p>}>
            <MeThrowing />
          </Suspense>
        </Boundary>
      );
    },
    operations: ['Me'],
    signedOut: 'error',
    cashier: 'cashier@demo.test',
  },
  'useBackgroundQuery and useReadQuery': {
    screen: function WithBackgroundQuery() {
      const [clubs] = useBackgroundQuery(CLUBS, { errorPolicy: 'all' });
      return (
        <Suspense fallback={<p data-testid="screen">suspended</p>}>
          <ReadClubs clubs={clubs} />
        </Suspense>
      );
    },
    operations: ['Clubs'],
    signedOut: 'error',
    cashier: 'Uptown Club',
  },
  useFragment: {
    // The admin's User, written to the cache by the provider's own `me` query.
    screen: function WithFragment() {
      const { data, complete } = useFragment({ fragment: EMAIL, from: { __typename: 'User', id: 'u_admin' } });
      return <p data-testid="screen">{complete ? data.email : '-'}</p>;
    },
    operations: [],
    signedOut: '-',
    cashier: '-',
  },
};

function MeThrowing() {
  const { data } = useSuspenseQuery(ME);
  return <p data-testid="screen">{data.me.email}</p>;
}

/** Renders `error` in place of a child that threw; its own child again once there is something to show. */
class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p data-testid="screen">error</p> : this.props.children;
  }
}

function ReadClubs({ clubs }: { clubs: QueryRef<Clubs, OperationVariables, 'complete' | 'streaming' | 'empty'> }) {
  const { data, error } = useReadQuery(clubs);
  return <p data-testid="screen">{data ? clubNames(data) : error ? 'error' : '-'}</p>;
}

/** What the last click set off, for the test to await at its end. */
let clicked: Promise<unknown> = Promise.resolve();

function Buttons() {
  const { status, login, logout } = useAuth();
  const client = useApolloClient();
  // What the cache held when `logout()` resolved.
  const [afterLogout, setAfterLogout] = useState('-');
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="after-logout">{afterLogout}</p>
      <button onClick={() => (clicked = logout().then(() => setAfterLogout(JSON.stringify(client.cache.extract()))))}>
        logout
      </button>
      <button onClick={() => (clicked = login('cashier@demo.test', 'cashier-pass'))}>login as cashier</button>
    </div>
  );
}

interface Mounted {
  server: TestAuthServer;
  clock: TestClock;
  store: TokenStore;
  auth: TokenAuth;
  client: ApolloClient;
  /** `Bearer <the admin's access token>`. */
  admin: string;
  http: ReturnType<typeof recordingFetch>;
}

/**
 * A test server over HTTP and a session on one test clock (the contract's 15-minute tokens), signed in as the
 * admin, with `Screen` mounted in StrictMode next to the provider, outside any AuthGate. Resolves once the
 * admin's data shows.
 */
async function signedInAsAdmin(Screen: () => ReactNode): Promise<Mounted> {
  const clock = createTestClock();
  const server = createTestAuthServer({ clock });
  const uri = await server.listen();
  cleanups.push(() => server.close());
  const store = shareTokenStore(createMemoryTokenStore());
  const auth = createTokenAuth({ uri, store, clock, refreshOnResume: false });
  cleanups.push(() => auth.dispose());
  await auth.login('admin@demo.test', 'admin-pass');
  const http = recordingFetch();
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri, fetch: http.fetch })]),
    cache: new InMemoryCache(),
  });
  // Awaited: a tree that suspends commits its fallback, and runs its effects, only once act settles.
  await act(async () => {
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Buttons />
            <Suspense fallback={<p data-testid="screen">suspended</p>}>
              <Screen />
            </Suspense>
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
  });
  await waitFor(() => expect(screen.getByTestId('screen').textContent).toMatch(ADMIN_TEXT));
  const admin = `Bearer ${await auth.getAccessToken()}`;
  return { server, clock, store, auth, client, admin, http };
}

/** A second session on the same store: another tab. */
function anotherTab({ server, store, clock }: Mounted) {
  const other = createTokenAuth({ uri: server.url, store, clock, refreshOnResume: false });
  cleanups.push(() => other.dispose());
  return other;
}

/** The ways a session ends; each resolves, once it has set the end off, with what settles once it is over. */
const endings: Record<string, { who: 'signed out' | 'cashier'; end(mounted: Mounted): { done: Promise<unknown> } }> = {
  "the hook's logout()": {
    who: 'signed out',
    end: () => (fireEvent.click(screen.getByText('logout')), { done: clicked }),
  },
  'auth.logout() outside React': { who: 'signed out', end: ({ auth }) => ({ done: auth.logout() }) },
  'a logout in another tab (a shared store)': {
    who: 'signed out',
    end: (mounted) => ({ done: anotherTab(mounted).logout() }),
  },
  'the server refusing the refresh (session revoked)': {
    who: 'signed out',
    end({ server, clock, auth }) {
      server.revokeAllSessions();
      // To the proactive refresh, 2.5 minutes before the 15-minute token expires, and not past it: the refusal
      // comes over real HTTP, and the refresh's timeout must not fire before it.
      return { done: clock.advanceTo(auth.getState().refreshAt!) };
    },
  },
  "another user's login here": {
    who: 'cashier',
    end: () => (fireEvent.click(screen.getByText('login as cashier')), { done: clicked }),
  },
  "another user's login in another tab": {
    who: 'cashier',
    end: (mounted) => ({ done: anotherTab(mounted).login('cashier@demo.test', 'cashier-pass') }),
  },
};

describe.each(Object.entries(hooks))('%s, outside any AuthGate', (_, hook) => {
  it.each(Object.entries(endings))(
    'shows nothing of the previous user within 300 ms once the session ends: %s; each query is sent again at most once, never with the old token',
    async (_, ending) => {
      const mounted = await signedInAsAdmin(hook.screen);
      const { client, http, admin, auth } = mounted;
      const before = http.sent.length;

      const { done } = ending.end(mounted);
      await waitFor(() => expect(screen.queryByText(ADMIN_TEXT)).toBeNull(), { timeout: 300, interval: 10 });

      // Then the screen settles on its signed-out result, or the new user's, with nothing left in flight.
      const settled = ending.who === 'cashier' ? hook.cashier : hook.signedOut;
      await waitFor(() => expect(screen.getByTestId('screen').textContent).toBe(settled));
      await waitFor(() => expect(http.inFlight()).toBe(0));
      expect(screen.queryByText(ADMIN_TEXT)).toBeNull();
      expect(JSON.stringify(client.cache.extract())).not.toMatch(ADMIN_TEXT);

      const after = http.sent.slice(before);
      expect(after.filter((request) => request.authorization === admin)).toEqual([]);
      const bearer = ending.who === 'cashier' ? `Bearer ${await auth.getAccessToken()}` : '';
      expect(after.map((request) => request.authorization)).toEqual(after.map(() => bearer));
      for (const operation of hook.operations) {
        expect(after.filter((request) => request.operation === operation).length, operation).toBeLessThanOrEqual(1);
      }
      expect(after.filter((request) => request.operation === 'TokenPairMe').length).toBeLessThanOrEqual(1);
      if (ending.who === 'cashier') expect(screen.getByTestId('status').textContent).toBe('authenticated');
      else await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('unauthenticated'));
      await act(() => done);
    },
  );
});

// Not the boundary's: one that caught the signed-out error shows it until the app resets it (as on any error).
const recovering = Object.entries(hooks).filter(([name]) => !name.includes('boundary'));

describe.each(recovering)('%s, outside any AuthGate, signed out then in again', (_, hook) => {
  it("shows the new user's data: its query is fetched again with that user's token", async () => {
    const { auth, http } = await signedInAsAdmin(hook.screen);
    await act(() => auth.logout());
    await waitFor(() => expect(screen.getByTestId('screen').textContent).toBe(hook.signedOut));
    await waitFor(() => expect(http.inFlight()).toBe(0));
    const before = http.sent.length;

    fireEvent.click(screen.getByText('login as cashier'));
    await act(() => clicked);
    await waitFor(() => expect(screen.getByTestId('screen').textContent).toBe(hook.cashier));
    await waitFor(() => expect(http.inFlight()).toBe(0));

    const cashier = `Bearer ${await auth.getAccessToken()}`;
    const after = http.sent.slice(before);
    expect(after.map((request) => request.authorization)).toEqual(after.map(() => cashier));
    for (const operation of hook.operations)
      expect(
        after.filter((request) => request.operation === operation),
        operation,
      ).toHaveLength(1);
  });
});

describe("the provider's reset, around the end of a session", () => {
  it('useAuth().logout() resolves once the cache is empty', async () => {
    const { http } = await signedInAsAdmin(hooks['useQuery']!.screen);
    fireEvent.click(screen.getByText('logout'));
    await act(() => clicked);
    expect(screen.getByTestId('after-logout').textContent).toBe('{}');
    // The refetch that followed, signed out, answered before the server closes.
    await waitFor(() => expect(screen.getByTestId('screen').textContent).toBe('error'));
    await waitFor(() => expect(http.inFlight()).toBe(0));
  });

  it('a query that waited for a refresh when the session ended is never sent again, with or without a token', async () => {
    const { server, clock, client, http, admin } = await signedInAsAdmin(hooks['useQuery']!.screen);
    server.expireAllAccessTokens();
    server.faults.hangRefresh = true;
    const waiting = client
      .query({ query: PING, variables: { n: 1 }, fetchPolicy: 'network-only' })
      .catch((error: unknown) => error);
    await waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    expect(http.sent.filter((request) => request.operation === 'Ping')).toEqual([
      { operation: 'Ping', authorization: admin },
    ]);
    const before = http.sent.length;

    fireEvent.click(screen.getByText('logout'));
    expect(await waiting).toBeInstanceOf(Error);
    await waitFor(() => expect(screen.getByTestId('screen').textContent).toBe('error'));
    await waitFor(() => expect(http.inFlight()).toBe(0));
    // The logout revokes the pair once the refresh in flight has settled: it times out on the test clock.
    await act(() => clock.advance(60_000));
    await act(() => clicked);

    // The mounted query went again once, signed out; the one that waited did not go again at all.
    expect(http.sent.slice(before)).toEqual([{ operation: 'Clubs', authorization: '' }]);
    expect(JSON.stringify(client.cache.extract())).not.toMatch(ADMIN_TEXT);
  });
});
