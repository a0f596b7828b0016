// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenAuth,
  type TokenAuth,
  type TokenAuthState,
  createTokenStore,
  type TokenStore,
} from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { createFetchStub } from '../helpers/fetchStub';
import { hydrate } from '../helpers/hydrate';
import { makePair } from '../helpers/jwt';

afterEach(cleanup);

// Answers `me` for whoever asks: the provider's query needs a terminating link.
const meLink = new ApolloLink(
  () =>
    new Observable((observer) => {
      observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test' } } });
      observer.complete();
    }),
);

function tree(auth: TokenAuth, children = <p>secret</p>, serverState?: TokenAuthState) {
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() });
  return (
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth} serverState={serverState}>
        <AuthGate loading={<p>restoring</p>} fallback={<p>login</p>}>
          {children}
        </AuthGate>
      </TokenAuthProvider>
    </ApolloProvider>
  );
}

/** A store that answers asynchronously, as secure storage or another tab does. */
function asyncStore(pair: ReturnType<typeof makePair> | null): TokenStore {
  return createTokenStore({ get: () => Promise.resolve(pair), set: () => {}, clear: () => {} });
}

describe('hydration of a server-rendered tree', () => {
  it('shows no mismatch warning when the client session has changed state before hydrating, then shows the new state', async () => {
    const server = createTokenAuth({ uri: 'http://auth.test/graphql', store: asyncStore(null) });
    const html = renderToString(tree(server));
    server.dispose();
    expect(html).toBe('<p>restoring</p>');

    // On the client the stored pair has been read by the time React hydrates: the state is already ahead of the markup.
    const store = asyncStore(makePair('stored'));
    const client = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store,
      fetch: createFetchStub({ auto: true }).fetch,
    });
    await vi.waitFor(() => expect(client.getState().status).toBe('authenticated'));
    const { container, root, reported } = await hydrate(html, tree(client));
    expect(container.innerHTML).toBe('<p>secret</p>');
    expect(reported).toEqual([]);
    act(() => root.unmount());
    client.dispose();
  });

  it("renders the state after an awaited restore on the server, and the browser hydrates to the same markup from the server's state", async () => {
    // A request's session on the server: its stored access token is dead, so the restore renews it first.
    const server = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store: createMemoryTokenStore(makePair('dead', { now: Date.now() - 20 * 60_000 })),
      fetch: createFetchStub({ auto: true }).fetch,
      refreshOnResume: false,
    });
    await server.getAccessToken();
    expect(server.getState().status).toBe('authenticated');
    // Without serverState the server snapshot is the session's first state: the restore, not the data.
    expect(renderToString(tree(server))).toBe('<p>restoring</p>');
    // Handed to the page as JSON, as a framework passes props from server to client.
    const serverState = JSON.parse(JSON.stringify(server.getState())) as TokenAuthState;
    const html = renderToString(tree(server, undefined, serverState));
    server.dispose();
    expect(html).toBe('<p>secret</p>');

    // The browser's own session is still loading its pair when React hydrates.
    const client = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store: asyncStore(makePair('stored')),
      fetch: createFetchStub({ auto: true }).fetch,
    });
    expect(client.getState().status).toBe('loading');
    const { container, root, reported } = await hydrate(html, tree(client, undefined, serverState));
    expect(reported).toEqual([]);
    await vi.waitFor(() => expect(client.getState().status).toBe('authenticated'));
    await act(async () => {});
    expect(container.innerHTML).toBe('<p>secret</p>');
    act(() => root.unmount());
    client.dispose();
  });

  it('control: rendering the client state as the server snapshot would mismatch, so the test above can fail', async () => {
    const store = asyncStore(makePair('stored'));
    const client = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store,
      fetch: createFetchStub({ auto: true }).fetch,
    });
    await vi.waitFor(() => expect(client.getState().status).toBe('authenticated'));
    const container = document.createElement('div');
    container.innerHTML = '<p>restoring</p>';
    const recoverable = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // The same tree, with the session's getInitialState replaced by getState: what a naive binding does.
    const naive = { ...client, getInitialState: client.getState };
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, tree(naive), { onRecoverableError: recoverable });
    });
    expect(recoverable.mock.calls.length + errors.mock.calls.length).toBeGreaterThan(0);
    errors.mockRestore();
    act(() => root.unmount());
    client.dispose();
  });
});

describe('useAuth with a selector', () => {
  it('does not re-render a component that reads only status when the pair is refreshed; the full hook does', async () => {
    const auth = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store: createMemoryTokenStore(),
      fetch: createFetchStub({ auto: true }).fetch,
    });
    let statusRenders = 0;
    let fullRenders = 0;
    function Status() {
      statusRenders++;
      return <p data-testid="status">{useAuth((value) => value.status)}</p>;
    }
    function Full() {
      fullRenders++;
      const { refreshAt } = useAuth();
      return <p data-testid="refreshAt">{String(refreshAt)}</p>;
    }
    const { container } = render(
      <StrictMode>
        {tree(
          auth,
          <>
            <Status />
            <Full />
          </>,
        )}
      </StrictMode>,
    );
    expect(container.textContent).toBe('login');
    await act(() => auth.login('a@b.test', 'pw'));
    expect(screen.getByTestId('status').textContent).toBe('authenticated');
    const [status, full] = [statusRenders, fullRenders];
    const before = screen.getByTestId('refreshAt').textContent;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await act(() => auth.refresh());
    expect(screen.getByTestId('refreshAt').textContent).not.toBe(before);
    expect(fullRenders).toBeGreaterThan(full);
    expect(statusRenders).toBe(status);
    auth.dispose();
  });
});
