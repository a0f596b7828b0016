// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { ApolloProvider, useApolloClient, useQuery } from '@apollo/client/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useEffect, useLayoutEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, shareTokenStore, type TokenAuth, type TokenStore } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { createTestAuthServer, createTestClock, type TestAuthServer, type TestClock } from '../../src/testing';
import { useCleanups } from '../helpers/overHttp';
import { recordingFetch } from '../helpers/recordingFetch';

// When a user signs in while the previous user's store reset has not run yet (a sign-out's reset waits for the next
// timer, which a hidden tab runs late), or starts at the sign-in itself (a login as someone else), the new user's
// screens mount as soon as React renders the sign-in. Before the reset has emptied the store, they read the previous
// user's data from the cache, and the reset then aborts the queries they started. Soak seed 1 met it as "Store
// reset while query was in flight" on an operation of a user who signed in 13 ms after a sign-out.

const cleanups = useCleanups();
// Registered after useCleanups, so it runs before it (afterEach hooks run in reverse): React unmounts first.
afterEach(cleanup);

// Captured before any test hides the tab: the waits below run while its timers do not.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const sleep = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

type Clubs = { clubs: Array<{ id: string; name: string }> };
const CLUBS: TypedDocumentNode<Clubs> = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;

/** The admin's data: its email and its clubs. */
const ADMIN_TEXT = /admin@demo\.test|Downtown Club|Harbor Club/;

/** Every text each screen showed, commit by commit: what a person looking at it could have seen. */
const seen: Record<string, string[]> = {};

/** Shows `text` as `testid`, and writes down each text that reaches the screen. */
function Shown({ testid, text }: { testid: string; text: string }) {
  useLayoutEffect(() => void (seen[testid] ??= []).push(text), [testid, text]);
  return <p data-testid={testid}>{text}</p>;
}

/** The clubs the signed-in user may see, as a screen of one role shows them. */
function ClubsScreen({ role }: { role: string }) {
  const { data, error } = useQuery(CLUBS);
  const text = data ? data.clubs.map((club) => club.name).join(', ') : error ? `error: ${error.message}` : '…';
  return <Shown testid={`clubs of ${role}`} text={text} />;
}

const WELCOME: TypedDocumentNode<{ me: { id: string; email: string } }> = gql`
  query Welcome {
    me {
      id
      email
    }
  }
`;

/** A greeting the app loads once, with `client.query`, when the screen mounts: an operation of the app's own. */
function Welcome({ role }: { role: string }) {
  const client = useApolloClient();
  const [text, setText] = useState('…');
  useEffect(() => {
    let mounted = true;
    client.query({ query: WELCOME, fetchPolicy: 'network-only' }).then(
      ({ data }) => mounted && setText(`welcome, ${data?.me.email}`),
      (error: Error) => mounted && setText(`error: ${error.message}`),
    );
    return () => void (mounted = false);
  }, [client]);
  return <Shown testid={`welcome of ${role}`} text={text} />;
}

function Me() {
  const me = useAuth((auth) => auth.me);
  return <Shown testid="me" text={me?.email ?? '-'} />;
}

interface Mounted {
  server: TestAuthServer;
  clock: TestClock;
  store: TokenStore;
  auth: TokenAuth;
  http: ReturnType<typeof recordingFetch>;
}

/**
 * A test server over HTTP and a session on one test clock, signed in as the admin, with a screen for each role behind
 * `<AuthGate>` in StrictMode: the admin's shows the admin's clubs, the cashier's mounts when the cashier signs in.
 * Resolves once the admin's clubs show.
 */
async function signedInAsAdmin(): Promise<Mounted> {
  for (const key of Object.keys(seen)) delete seen[key];
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
  await act(async () => {
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Me />
            <AuthGate fallback={<Shown testid="signed out" text="signed out" />}>
              <AuthGate role="ADMIN">
                <ClubsScreen role="ADMIN" />
              </AuthGate>
              <AuthGate role="Cashier">
                <ClubsScreen role="Cashier" />
                <Welcome role="Cashier" />
              </AuthGate>
            </AuthGate>
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
  });
  await waitFor(() => expect(screen.getByTestId('clubs of ADMIN').textContent).toBe('Downtown Club, Harbor Club'));
  await waitFor(() => expect(screen.getByTestId('me').textContent).toBe('admin@demo.test'));
  await waitFor(() => expect(http.inFlight()).toBe(0));
  return { server, clock, store, auth, http };
}

/**
 * Hides the tab as a browser throttles a background one: its timers do not run until it is shown again, when those
 * still set run at once. Returns `show`.
 */
function hideTab(): () => void {
  const held = new Map<object, () => void>();
  const set = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    run: (...args: unknown[]) => void,
    _ms?: number,
    ...args: unknown[]
  ) => {
    const id = {};
    held.set(id, () => run(...args));
    return id;
  }) as unknown as typeof setTimeout);
  const clear = vi
    .spyOn(globalThis, 'clearTimeout')
    .mockImplementation(
      ((id: object) => void (held.delete(id) || realClearTimeout(id as never))) as typeof clearTimeout,
    );
  const show = () => {
    set.mockRestore();
    clear.mockRestore();
    for (const run of held.values()) setTimeout(run);
    held.clear();
  };
  cleanups.push(show);
  return show;
}

/** Waits, on real timers, until `check` holds: the tab's own timers may be held. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (const started = performance.now(); !check(); await sleep(5)) {
    if (performance.now() - started > 5_000) throw new Error(`Waited 5 s for ${what}.`);
  }
}

const text = (testid: string) => screen.queryByTestId(testid)?.textContent;

/** Each text `testid` showed besides loading and `theirs`. */
const besides = (testid: string, theirs: string) =>
  (seen[testid] ?? []).filter((shown) => shown !== '…' && shown !== theirs);

/** After the sign-in: what the cashier's screens showed, and what went over HTTP since `before`. */
async function expectTheCashierOnly({ auth, http }: Mounted, before: number) {
  await waitFor(() => expect(text('clubs of Cashier')).toBe('Uptown Club'));
  await waitFor(() => expect(text('me')).toBe('cashier@demo.test'));
  await waitFor(() => expect(text('welcome of Cashier')).not.toBe('…'));
  await waitFor(() => expect(http.inFlight()).toBe(0));
  // Every text the cashier's screens ever showed: theirs, or loading; never the admin's data, never an error.
  expect({
    clubs: besides('clubs of Cashier', 'Uptown Club'),
    welcome: besides('welcome of Cashier', 'welcome, cashier@demo.test'),
  }).toEqual({ clubs: [], welcome: [] });
  expect(text('welcome of Cashier')).toBe('welcome, cashier@demo.test');
  expect(screen.queryByText(ADMIN_TEXT)).toBeNull();
  // Each of the cashier's queries went once, with the cashier's token: none was aborted by the admin's reset.
  const cashier = `Bearer ${await auth.getAccessToken()}`;
  const after = http.sent.slice(before);
  expect(after.map((request) => request.operation).sort()).toEqual(['Clubs', 'TokenPairMe', 'Welcome']);
  expect(after.map((request) => request.authorization)).toEqual(after.map(() => cashier));
}

describe("a new user's screens, while the previous user's store reset is still to run", () => {
  it("in a hidden tab, a sign-out and another user's sign-in 13 ms later (in another tab): the new user sees only their own data, and their queries each go once", async () => {
    const mounted = await signedInAsAdmin();
    const { server, store, clock, auth, http } = mounted;
    const other = createTokenAuth({ uri: server.url, store, clock, refreshOnResume: false });
    cleanups.push(() => other.dispose());
    const before = http.sent.length;
    const show = hideTab();

    const loggedOut = other.logout();
    const started = performance.now();
    await until('the sign-out on screen', () => text('signed out') === 'signed out');
    await sleep(13 - (performance.now() - started));
    const signedIn = other.login('cashier@demo.test', 'cashier-pass');
    await until('the cashier here', () => auth.getState().user?.email === 'cashier@demo.test');
    await until("the cashier's clubs", () => text('clubs of Cashier') === 'Uptown Club');
    show();

    await expectTheCashierOnly(mounted, before);
    await act(() => Promise.all([loggedOut, signedIn]));
  });

  it("a login here as another user: the screen of the new user's role sees only their data", async () => {
    const mounted = await signedInAsAdmin();
    const before = mounted.http.sent.length;

    const signedIn = mounted.auth.login('cashier@demo.test', 'cashier-pass');

    await expectTheCashierOnly(mounted, before);
    await act(() => signedIn);
  });
});
