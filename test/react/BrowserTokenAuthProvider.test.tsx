// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { act, cleanup, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenStore } from '../../src';
import { BrowserTokenAuthProvider, useAuth } from '../../src/react';
import { getServerState } from '../../src/server/getServerState';
import { createFetchStub } from '../helpers/fetchStub';
import { hydrate } from '../helpers/hydrate';
import { makePair } from '../helpers/jwt';

afterEach(cleanup);

const meLink = new ApolloLink(
  () =>
    new Observable((observer) => {
      observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test' } } });
      observer.complete();
    }),
);

function Status() {
  const { status, user } = useAuth();
  return (
    <p>
      {status}
      {user ? ` as ${user.email}` : ''}
    </p>
  );
}

/** A page's `createApp`: counts its calls, and makes a session whose store answers later, as a token handler's does. */
function appFactory() {
  const made: ReturnType<typeof createTokenAuth>[] = [];
  const create = vi.fn(() => {
    const store = createTokenStore({ get: () => Promise.resolve(makePair('stored')), set: () => {}, clear: () => {} });
    const auth = createTokenAuth({
      uri: 'http://auth.test/graphql',
      store,
      fetch: createFetchStub({ auto: true }).fetch,
      refreshOnResume: false,
    });
    made.push(auth);
    return {
      auth,
      client: new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() }),
    };
  });
  return { create, made };
}

/** Renders `element` as a server would: no `window`. */
function renderOnServer(element: React.ReactElement): string {
  vi.stubGlobal('window', undefined);
  try {
    return renderToString(element);
  } finally {
    vi.unstubAllGlobals();
  }
}

describe('BrowserTokenAuthProvider', () => {
  const serverState = getServerState(makePair('server').accessToken);

  it('creates nothing on the server, and renders the server state there', () => {
    const { create } = appFactory();
    const html = renderOnServer(
      <BrowserTokenAuthProvider create={create} serverState={serverState}>
        <Status />
      </BrowserTokenAuthProvider>,
    );
    expect(html).toBe('<p>authenticated<!-- --> as a@b.test</p>');
    expect(create).not.toHaveBeenCalled();
    // Without serverState the server shows the restore, as the browser's session starts in it.
    expect(
      renderOnServer(
        <BrowserTokenAuthProvider create={create}>
          <Status />
        </BrowserTokenAuthProvider>,
      ),
    ).toBe('<p>loading</p>');
  });

  it('hydrates the server markup without a mismatch, creating the session once under StrictMode, and the session takes over', async () => {
    const { create, made } = appFactory();
    const page = (
      <StrictMode>
        <BrowserTokenAuthProvider create={create} serverState={serverState}>
          <Status />
        </BrowserTokenAuthProvider>
      </StrictMode>
    );
    const { container, root, reported } = await hydrate(renderOnServer(page), page);
    expect(reported).toEqual([]);
    expect(create).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(made[0]!.getState().status).toBe('authenticated'));
    expect(container.textContent).toBe('authenticated as a@b.test');

    // Unmounted and mounted again (a layout that remounts): the page's session is the same one.
    act(() => root.unmount());
    const again = render(
      <BrowserTokenAuthProvider create={create}>
        <Status />
      </BrowserTokenAuthProvider>,
    );
    expect(create).toHaveBeenCalledTimes(1);
    expect(again.container.textContent).toBe('authenticated as a@b.test');
    made[0]!.dispose();
  });

  it('the stand-in a server gets refuses to log in, with a message that says where the session lives', async () => {
    const { create } = appFactory();
    let login!: (email: string, password: string) => Promise<unknown>;
    function Grab() {
      login = useAuth().login;
      return null;
    }
    renderOnServer(
      <BrowserTokenAuthProvider create={create}>
        <Grab />
      </BrowserTokenAuthProvider>,
    );
    await expect(login('a@b.test', 'pw')).rejects.toThrow(
      /no session on the server; BrowserTokenAuthProvider creates it in the browser/,
    );
  });
});
