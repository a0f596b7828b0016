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

function tree(auth: TokenAuth, children = <p>secret</p>, serverState?: TokenAuthState, fallback = <p>login</p>) {
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() });
  return (
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth} serverState={serverState}>
        <AuthGate loading={<p>restoring</p>} fallback={fallback}>
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

  /** A store whose read the test answers, and every markup the container showed meanwhile. */
  function heldStore() {
    let answer!: (pair: ReturnType<typeof makePair> | null) => void;
    const read = new Promise<ReturnType<typeof makePair> | null>((resolve) => (answer = resolve));
    const store = createTokenStore({ get: () => read, set: () => {}, clear: () => {} });
    return { store, answer };
  }
  function recordMarkup(container: HTMLElement) {
    const seen = [container.innerHTML];
    const observer = new MutationObserver(() => seen.push(container.innerHTML));
    observer.observe(container, { subtree: true, childList: true, characterData: true });
    return { seen, stop: () => observer.disconnect() };
  }

  // Seen in CI (examples/nextjs): the server rendered the sign-in form, the person typed a password before React
  // hydrated, the browser's restore showed "loading" and then the form anew, empty, and "Sign in" sent no password.
  it("keeps the server's markup while the browser's session restores: no flash of the restore, and the form typed into is the same", async () => {
    const signedOut: TokenAuthState = { status: 'unauthenticated', user: null };
    const form = <input data-testid="password" />;
    const server = createTokenAuth({ uri: 'http://auth.test/graphql', store: asyncStore(null) });
    const html = renderToString(tree(server, undefined, signedOut, form));
    server.dispose();
    expect(html).toBe('<input data-testid="password"/>');

    const { store, answer } = heldStore();
    const client = createTokenAuth({ uri: 'http://auth.test/graphql', store, fetch: createFetchStub().fetch });
    let typedInto!: HTMLInputElement;
    let markup!: ReturnType<typeof recordMarkup>;
    const { container, root, reported } = await hydrate(html, tree(client, undefined, signedOut, form), (page) => {
      typedInto = page.querySelector('input')!;
      typedInto.value = 'admin-pass';
      markup = recordMarkup(page);
    });
    expect(client.getState().status).toBe('loading');

    await act(async () => answer(null));
    await vi.waitFor(() => expect(client.getState().status).toBe('unauthenticated'));
    await act(async () => {});
    markup.stop();
    expect(markup.seen.filter((each) => each.includes('restoring'))).toEqual([]);
    expect(container.querySelector('input')).toBe(typedInto);
    expect(typedInto.value).toBe('admin-pass');
    expect(reported).toEqual([]);
    act(() => root.unmount());
    client.dispose();
  });

  it("keeps the signed-in user the server rendered while the browser's session restores it: no flash of the restore", async () => {
    const server = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store: createMemoryTokenStore(makePair('stored')),
      fetch: createFetchStub({ auto: true }).fetch,
      refreshOnResume: false,
    });
    await server.getAccessToken();
    const serverState = JSON.parse(JSON.stringify(server.getState())) as TokenAuthState;
    const html = renderToString(tree(server, undefined, serverState));
    server.dispose();
    expect(html).toBe('<p>secret</p>');

    const { store, answer } = heldStore();
    const client = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store,
      fetch: createFetchStub({ auto: true }).fetch,
    });
    let markup!: ReturnType<typeof recordMarkup>;
    const { container, root, reported } = await hydrate(
      html,
      tree(client, undefined, serverState),
      (page) => (markup = recordMarkup(page)),
    );

    await act(async () => answer(makePair('stored')));
    await vi.waitFor(() => expect(client.getState().status).toBe('authenticated'));
    await act(async () => {});
    markup.stop();
    expect(markup.seen.filter((each) => each !== '<p>secret</p>')).toEqual([]);
    expect(container.innerHTML).toBe('<p>secret</p>');
    expect(reported).toEqual([]);
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
