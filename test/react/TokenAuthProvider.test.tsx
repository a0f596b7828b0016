// @vitest-environment happy-dom
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthServer } from '../../demo/server/createAuthServer';
import { createMemoryTokenStore, createTokenAuth, type TokenPair } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { service } from '../helpers/jwtService';
import { clientFor, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();
// Registered after useCleanups, so it runs before it (afterEach hooks run in reverse): React unmounts first.
afterEach(cleanup);

const startServer = () => startDemoServer(cleanups);

function Account() {
  const { status, user, me, error, login, logout, hasRole } = useAuth();
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="role">{user?.role ?? '-'}</p>
      <p data-testid="me">{me ? me.email : '-'}</p>
      <p data-testid="error">{error ? error.message : '-'}</p>
      <p data-testid="admin">{hasRole(['ADMIN', 'OWNER']) ? 'yes' : 'no'}</p>
      <button onClick={() => login('admin@demo.test', 'admin-pass').catch(() => {})}>login</button>
      <button onClick={() => login('admin@demo.test', 'nope').catch(() => {})}>bad login</button>
      <button onClick={() => logout()}>logout</button>
    </div>
  );
}

function mount(server: AuthServer, pair?: TokenPair) {
  const auth = createTokenAuth({ uri: server.url, store: createMemoryTokenStore(pair) });
  const client = clientFor(auth.link, server.url);
  cleanups.push(() => auth.dispose());
  const view = render(
    <StrictMode>
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>
          <Account />
          <AuthGate fallback={<p data-testid="gate">login form</p>} loading={<p data-testid="gate">restoring</p>}>
            <p data-testid="gate">signed in</p>
            <AuthGate role="Cashier" forbidden={<p data-testid="till">cashiers only</p>}>
              <p data-testid="till">till</p>
            </AuthGate>
          </AuthGate>
        </TokenAuthProvider>
      </ApolloProvider>
    </StrictMode>,
  );
  return { auth, client, view };
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('TokenAuthProvider and useAuth (StrictMode, real demo server)', () => {
  it('logs in, shows me and the role, then logs out, clears the Apollo cache and shows the login form', async () => {
    const server = await startServer();
    const { client } = mount(server);
    await screen.findByText('login form');
    expect(text('status')).toBe('unauthenticated');
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(text('me')).toBe('admin@demo.test'));
    expect(text('role')).toBe('ADMIN');
    expect(text('admin')).toBe('yes');
    expect(text('gate')).toBe('signed in');
    expect(text('till')).toBe('cashiers only');
    expect(server.stats.loginCalls).toBe(1);
    expect(JSON.stringify(client.cache.extract())).toContain('admin@demo.test');
    fireEvent.click(screen.getByText('logout'));
    await screen.findByText('login form');
    expect(text('me')).toBe('-');
    await waitFor(() => expect(server.stats.logoutCalls).toBe(1));
    await waitFor(() => expect(JSON.stringify(client.cache.extract())).not.toContain('admin@demo.test'));
  });

  it('shows a failed login as error and clears it with the next successful login', async () => {
    const server = await startServer();
    const { auth } = mount(server);
    await screen.findByText('login form');
    fireEvent.click(screen.getByText('bad login'));
    // The service's own words, fit for a person; the code stays for the program.
    await waitFor(() => expect(text('error')).toBe('Invalid email or password'));
    expect(auth.getState().error).toMatchObject({
      name: 'AuthRejectedError',
      code: 'INVALID_CREDENTIALS',
      operation: 'loginWithEmailPassword',
    });
    expect(text('status')).toBe('unauthenticated');
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(text('me')).toBe('admin@demo.test'));
    expect(text('error')).toBe('-');
  });

  it('restores a session from a pre-filled store without logging in, and knows the role', async () => {
    const server = await startServer();
    const pair = await server.issueTokens('cashier@demo.test');
    mount(server, pair);
    // A synchronous store is read at once: signed in from the first render, with no 'restoring' in between.
    expect(text('gate')).toBe('signed in');
    await waitFor(() => expect(text('me')).toBe('cashier@demo.test'));
    expect(text('role')).toBe('Cashier');
    expect(text('admin')).toBe('no');
    expect(text('till')).toBe('till');
    expect(server.stats).toMatchObject({ loginCalls: 0, refreshCalls: 0 });
  });

  it('re-renders on a refresh while mounted, and StrictMode starts no second refresh', async () => {
    const server = await startServer();
    const { auth } = mount(server);
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(text('me')).toBe('admin@demo.test'));
    const before = auth.getState();
    server.expireAllAccessTokens();
    await act(() => auth.refresh());
    expect(auth.getState()).not.toBe(before);
    expect(text('status')).toBe('authenticated');
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
  });

  it('ends the session in the UI when the refresh token is revoked on the server', async () => {
    const server = await startServer();
    const { auth } = mount(server);
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(text('me')).toBe('admin@demo.test'));
    server.revokeAllSessions();
    await act(() => auth.refresh().catch(() => {}));
    await screen.findByText('login form');
    expect(text('error')).toMatch(/session has ended/);
  });

  it('useAuth outside the provider names <TokenAuthProvider>', () => {
    function Orphan() {
      useAuth();
      return null;
    }
    const original = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Orphan />)).toThrow(/<TokenAuthProvider/);
    } finally {
      console.error = original;
    }
  });

  // Found following a newcomer's app, whose provider sat outside <ApolloProvider>.
  it('outside <ApolloProvider>, throws an error that names the order', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const auth = createTokenAuth({ uri: 'http://unused.test', transport: service().transport, refreshOnResume: false });
    cleanups.push(() => auth.dispose());
    try {
      expect(() => render(<TokenAuthProvider auth={auth}>app</TokenAuthProvider>)).toThrow(
        '<TokenAuthProvider> must be inside <ApolloProvider>',
      );
    } finally {
      error.mockRestore();
    }
  });
});
