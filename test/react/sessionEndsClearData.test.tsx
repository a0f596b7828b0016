// @vitest-environment happy-dom
import { gql } from '@apollo/client';
import { ApolloProvider, useApolloClient, useQuery, useSuspenseQuery } from '@apollo/client/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthServer } from '../../demo/server/createAuthServer';
import { createMemoryTokenStore, createTokenAuth, shareTokenStore, type TokenAuth, type TokenStore } from '../../src';
import { TokenAuthProvider, useAuth } from '../../src/react';
import { clientFor, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();
// Registered after useCleanups, so it runs before it (afterEach hooks run in reverse): React unmounts first.
afterEach(cleanup);

const CLUBS = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;
const WHO = gql`
  query Who {
    me {
      id
      email
    }
  }
`;

/** A screen that is not behind an AuthGate: it stays mounted through the end of the session. */
function Clubs() {
  const { data, error } = useQuery<{ clubs: Array<{ id: string; name: string }> }>(CLUBS);
  return <p data-testid="clubs">{data ? data.clubs.map((club) => club.name).join(', ') : error ? 'error' : 'loading'}</p>;
}

function Who() {
  const { data, error } = useSuspenseQuery<{ me: { id: string; email: string } }>(WHO, { errorPolicy: 'all' });
  return <p data-testid="who">{data?.me ? data.me.email : error ? 'error' : '-'}</p>;
}

function Buttons() {
  const { status, login, logout } = useAuth();
  const client = useApolloClient();
  // What the cache held when `logout()` resolved.
  const [afterLogout, setAfterLogout] = useState('-');
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="after-logout">{afterLogout}</p>
      <button onClick={() => void logout().then(() => setAfterLogout(JSON.stringify(client.cache.extract())))}>logout</button>
      <button onClick={() => void login('cashier@demo.test', 'cashier-pass')}>login as cashier</button>
    </div>
  );
}

const ADMIN_CLUBS = 'Downtown Club, Harbor Club';
const text = (id: string) => screen.getByTestId(id).textContent;

/**
 * Signs in as the admin on a real demo server and mounts the screens in StrictMode; `store` may be shared with
 * another session (another tab). Resolves once the admin's data shows, with the admin's access token and the
 * server's counts at that moment.
 */
async function signedInAsAdmin(server: AuthServer, store: TokenStore = createMemoryTokenStore()) {
  const auth = createTokenAuth({ uri: server.url, store, refreshOnResume: false });
  cleanups.push(() => auth.dispose());
  await auth.login('admin@demo.test', 'admin-pass');
  const client = clientFor(auth.link, server.url);
  // Awaited: a tree that suspends commits its fallback, and runs its effects, only once act settles.
  await act(async () => {
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Buttons />
            <Clubs />
            <Suspense fallback={<p data-testid="who">suspended</p>}>
              <Who />
            </Suspense>
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
  });
  await waitFor(() => expect(text('clubs')).toBe(ADMIN_CLUBS));
  await waitFor(() => expect(text('who')).toBe('admin@demo.test'));
  const admin = `Bearer ${await auth.getAccessToken()}`;
  const seen = server.stats.authorizationHeaders.length;
  const logouts = server.stats.logoutCalls;
  /**
   * The Authorization headers the server received since the admin's data showed. The admin's token went out
   * only with the logout that revoked it, never with a query.
   */
  const headersSince = () => {
    const headers = server.stats.authorizationHeaders.slice(seen);
    expect(headers.filter((header) => header === admin)).toHaveLength(server.stats.logoutCalls - logouts);
    return headers.filter((header) => header !== admin);
  };
  return { auth, client, admin, headersSince };
}

/** Nothing of the admin in the cache; nothing more sent for the old screens, not even without a token. */
async function expectSignedOutScreens(client: ReturnType<typeof clientFor>, headersSince: () => string[], authCalls = 0) {
  await waitFor(() => expect(text('status')).toBe('unauthenticated'));
  await waitFor(() => expect(JSON.stringify(client.cache.extract())).toBe('{}'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Only the auth calls of the test itself, which carry no Authorization header.
  expect(headersSince()).toEqual(Array.from({ length: authCalls }, () => ''));
}

/** The cashier's data on screen and in the cache, fetched with the cashier's token; nothing of the admin. */
async function expectCashierScreens(client: ReturnType<typeof clientFor>, auth: TokenAuth, headersSince: () => string[]) {
  await waitFor(() => expect(text('clubs')).toBe('Uptown Club'));
  await waitFor(() => expect(text('who')).toBe('cashier@demo.test'));
  const cache = JSON.stringify(client.cache.extract());
  expect(cache).not.toContain('admin@demo.test');
  expect(cache).not.toContain('Downtown');
  const cashier = `Bearer ${await auth.getAccessToken()}`;
  const headers = headersSince().filter((header) => header !== '');
  expect(headers.length).toBeGreaterThanOrEqual(2);
  expect(headers.every((header) => header === cashier)).toBe(true);
}

/** A second session on the same store: another tab. */
function anotherTab(server: AuthServer, store: TokenStore) {
  const other = createTokenAuth({ uri: server.url, store, refreshOnResume: false });
  cleanups.push(() => other.dispose());
  return other;
}

describe("the provider clears the previous user's data however the session ends (StrictMode, real demo server)", () => {
  it('useAuth().logout()', async () => {
    const server = await startDemoServer(cleanups);
    const { client, headersSince } = await signedInAsAdmin(server);
    fireEvent.click(screen.getByText('logout'));
    await expectSignedOutScreens(client, headersSince);
    expect(server.stats.logoutCalls).toBe(1);
    await waitFor(() => expect(text('after-logout')).not.toBe('-'));
    expect(text('after-logout')).not.toContain('admin@demo.test');
  });

  it('useAuth().logout() while a query waits for a refresh: that query is not sent again, with or without a token', async () => {
    const server = await startDemoServer(cleanups);
    const { client, headersSince } = await signedInAsAdmin(server);
    server.expireAllAccessTokens();
    server.faults.delayMs['refreshToken'] = 300;
    const waiting = client.query({ query: CLUBS, fetchPolicy: 'network-only' }).catch((error: unknown) => error);
    await waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    const sent = server.stats.authorizationHeaders.length;

    fireEvent.click(screen.getByText('logout'));
    await waitFor(() => expect(text('after-logout')).not.toBe('-'));
    expect(await waiting).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 400));

    // Only the logout went out after the admin's expired query: no query of the old screen, with no token either.
    expect(server.stats.authorizationHeaders.slice(sent).filter((header) => header === '')).toEqual([]);
    expect(JSON.stringify(client.cache.extract())).toBe('{}');
    headersSince();
  });

  it('useAuth().logout() resolves once the cache is empty', async () => {
    const server = await startDemoServer(cleanups);
    const { client } = await signedInAsAdmin(server);
    fireEvent.click(screen.getByText('logout'));
    await waitFor(() => expect(text('after-logout')).not.toBe('-'), { timeout: 2_000 });
    expect(text('after-logout')).toBe('{}');
    expect(JSON.stringify(client.cache.extract())).toBe('{}');
  });

  it('auth.logout() called directly', async () => {
    const server = await startDemoServer(cleanups);
    const { auth, client, headersSince } = await signedInAsAdmin(server);
    await act(() => auth.logout());
    await expectSignedOutScreens(client, headersSince);
  });

  it('a session the server ended: the refresh is rejected', async () => {
    const server = await startDemoServer(cleanups);
    const { auth, client, headersSince } = await signedInAsAdmin(server);
    server.revokeAllSessions();
    await act(() => auth.refresh().catch(() => {}));
    expect(auth.getState().ended).toMatchObject({ reason: 'rejected', rejection: 'revoked' });
    await expectSignedOutScreens(client, headersSince, 1);
  });

  it('a logout in another tab', async () => {
    const server = await startDemoServer(cleanups);
    const store = shareTokenStore(createMemoryTokenStore());
    const { auth, client, headersSince } = await signedInAsAdmin(server, store);
    await act(() => anotherTab(server, store).logout());
    await expectSignedOutScreens(client, headersSince);
    expect(auth.getState().ended).toMatchObject({ reason: 'logout', elsewhere: true });
  });

  it('a login as someone else here', async () => {
    const server = await startDemoServer(cleanups);
    const { auth, client, headersSince } = await signedInAsAdmin(server);
    fireEvent.click(screen.getByText('login as cashier'));
    await expectCashierScreens(client, auth, headersSince);
  });

  it('a login as someone else in another tab', async () => {
    const server = await startDemoServer(cleanups);
    const store = shareTokenStore(createMemoryTokenStore());
    const { auth, client, headersSince } = await signedInAsAdmin(server, store);
    await act(() => anotherTab(server, store).login('cashier@demo.test', 'cashier-pass').then(() => {}));
    await expectCashierScreens(client, auth, headersSince);
    expect(auth.getState().ended).toMatchObject({ reason: 'replaced', elsewhere: true });
  });
});
