// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, type TokenAuth, type TokenStore } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { createFetchStub } from '../helpers/fetchStub';
import { makePair } from '../helpers/jwt';

afterEach(cleanup);

// Answers `me` for whoever asks: the provider's query needs a terminating link.
const meLink = new ApolloLink(() => new Observable((observer) => {
  observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test' } } });
  observer.complete();
}));

function tree(auth: TokenAuth, children = <p>secret</p>) {
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() });
  return (
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth}>
        <AuthGate loading={<p>restoring</p>} fallback={<p>login</p>}>
          {children}
        </AuthGate>
      </TokenAuthProvider>
    </ApolloProvider>
  );
}

/** A store that answers asynchronously, as secure storage or another tab does. */
function asyncStore(pair: ReturnType<typeof makePair> | null): TokenStore {
  return { get: () => Promise.resolve(pair), set: () => {}, clear: () => {} };
}

describe('hydration of a server-rendered tree', () => {
  it('shows no mismatch warning when the client session has changed state before hydrating, then shows the new state', async () => {
    const server = createTokenAuth({ uri: 'http://auth.test/graphql', store: asyncStore(null) });
    const html = renderToString(tree(server));
    server.dispose();
    expect(html).toBe('<p>restoring</p>');

    // On the client the stored pair has been read by the time React hydrates: the state is already ahead of the markup.
    const store = asyncStore(makePair('stored'));
    const client = createTokenAuth({ uri: 'http://auth.test/graphql', store, fetch: createFetchStub({ auto: true }).fetch });
    await vi.waitFor(() => expect(client.getState().status).toBe('authenticated'));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const recoverable = vi.fn();
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, tree(client), { onRecoverableError: recoverable });
    });
    expect(container.innerHTML).toBe('<p>secret</p>');
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    act(() => root.unmount());
    client.dispose();
  });

  it('control: rendering the client state as the server snapshot would mismatch, so the test above can fail', async () => {
    const store = asyncStore(makePair('stored'));
    const client = createTokenAuth({ uri: 'http://auth.test/graphql', store, fetch: createFetchStub({ auto: true }).fetch });
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
    const auth = createTokenAuth({ uri: 'http://auth.test/graphql', store: createMemoryTokenStore(), fetch: createFetchStub({ auto: true }).fetch });
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
    render(<StrictMode>{tree(auth, <><Status /><Full /></>)}</StrictMode>);
    expect(screen.getByText('login')).toBeTruthy();
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
