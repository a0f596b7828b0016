// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, gql, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, type TokenAuth } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { service } from '../helpers/jwtService';
import { TIME } from '../helpers/session';

// What a newcomer's first app met (issue 38): the provider outside <ApolloProvider>, two `me` requests per sign-in,
// and a screen behind <AuthGate> whose query went out once more, without a token, at sign-out.

const disposers: Array<() => void> = [];
beforeEach(() => void vi.useFakeTimers({ now: TIME.T0 }));
afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
  vi.useRealTimers();
});

const APP_ME: TypedDocumentNode<{ me: { id: string; email: string; role: string } }> = gql`
  query AppMe {
    me {
      id
      email
      role
    }
  }
`;
const CLUBS: TypedDocumentNode<{ clubs: Array<{ id: string; name: string }> }> = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;

/** The API as a link: answers `me` and `clubs` for a request with a token, refuses one without; records each. */
function api() {
  const sent: Array<{ name: string; token: boolean }> = [];
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const token = !!(operation.getContext().headers as Record<string, string> | undefined)?.authorization;
        sent.push({ name: operation.operationName ?? '', token });
        if (!token) observer.next({ errors: [{ message: 'Not authenticated' }] });
        else if (operation.operationName === 'Clubs')
          observer.next({ data: { clubs: [{ __typename: 'Club', id: 'c1', name: 'Downtown' }] } });
        else observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test', role: 'ADMIN' } } });
        observer.complete();
      }),
  );
  return { sent, link };
}

function session(): TokenAuth {
  const auth = createTokenAuth({ uri: 'http://unused.test', transport: service().transport, refreshOnResume: false });
  disposers.push(() => auth.dispose());
  return auth;
}

const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('TokenAuthProvider, as a newcomer places it', () => {
  it('outside <ApolloProvider>: an error that names the order', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<TokenAuthProvider auth={session()}>app</TokenAuthProvider>)).toThrow(
      '<TokenAuthProvider> must be inside <ApolloProvider>',
    );
  });

  it('auth.link after the link that sends operations: the console names the fix; in its place, nothing is said', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const order of ['wrong', 'right'] as const) {
      const auth = session();
      const { sent, link } = api();
      const chain = order === 'wrong' ? link.concat(auth.link) : ApolloLink.from([auth.link, link]);
      const client = new ApolloClient({ link: chain, cache: new InMemoryCache() });
      const view = render(
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>signed in</TokenAuthProvider>
        </ApolloProvider>,
      );
      await act(() => auth.login('a@b.test', 'pw').then(() => {}));
      await settle();
      expect(sent).toEqual([{ name: 'TokenPairMe', token: order === 'right' }]);
      const said = error.mock.calls.filter(([message]) => String(message).includes('auth.link comes before'));
      expect(said, order).toHaveLength(order === 'wrong' ? 1 : 0);
      if (order === 'wrong') {
        expect(String(said[0]![0])).toContain('ApolloLink.from([auth.link, new HttpLink({ uri })])');
      }
      view.unmount();
      error.mockClear();
    }
  });

  it('auth.link after the link that sends operations, but the API down: an outage says nothing of the chain', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const auth = session();
    const down = new ApolloLink(() => new Observable((observer) => observer.error(new TypeError('Failed to fetch'))));
    const client = new ApolloClient({ link: down.concat(auth.link), cache: new InMemoryCache() });
    render(
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>signed in</TokenAuthProvider>
      </ApolloProvider>,
    );
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(error.mock.calls.filter(([message]) => String(message).includes('auth.link comes before'))).toEqual([]);
  });

  it('hands the app its own `me` document: one `me` request per sign-in, read through useAuth().me', async () => {
    const auth = session();
    const { sent, link } = api();
    const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
    function Account() {
      const { me } = useAuth();
      return <p data-testid="me">{me ? `${me.email} (${String(me['role'])})` : 'Loading me…'}</p>;
    }
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth} me={APP_ME}>
            <AuthGate fallback={<p>Sign in</p>}>
              <Account />
            </AuthGate>
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(screen.getByTestId('me').textContent).toBe('a@b.test (ADMIN)');
    expect(sent).toEqual([{ name: 'AppMe', token: true }]);
  });

  it('me={false}: no `me` request at all', async () => {
    const auth = session();
    const { sent, link } = api();
    const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
    render(
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth} me={false}>
          signed in
        </TokenAuthProvider>
      </ApolloProvider>,
    );
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(sent).toEqual([]);
  });

  it('at sign-out, no query of a screen behind <AuthGate> goes out; one outside it is fetched again', async () => {
    const auth = session();
    const { sent, link } = api();
    const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
    function Account() {
      const { data } = useQuery(APP_ME);
      return <p data-testid="account">{data ? `me: ${data.me.email}` : 'Loading me…'}</p>;
    }
    function Clubs() {
      const { data, error } = useQuery(CLUBS);
      return <p data-testid="clubs">{data ? data.clubs[0]!.name : error ? 'Sign in to see your clubs.' : '…'}</p>;
    }
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Clubs />
            <AuthGate fallback={<p data-testid="account">Sign in</p>}>
              <Account />
            </AuthGate>
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
    await settle();
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(screen.getByTestId('account').textContent).toBe('me: a@b.test');
    expect(screen.getByTestId('clubs').textContent).toBe('Downtown');
    const before = sent.length;

    await act(() => auth.logout());
    await settle();
    expect(screen.getByTestId('account').textContent).toBe('Sign in');
    expect(screen.getByTestId('clubs').textContent).toBe('Sign in to see your clubs.');
    expect(sent.slice(before)).toEqual([{ name: 'Clubs', token: false }]);
  });

  it('signed out and in again at once (as in another tab): the reset runs before the new queries, none is aborted', async () => {
    const auth = session();
    const { sent, link } = api();
    const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
    const failures: string[] = [];
    function Clubs() {
      const { data, error } = useQuery(CLUBS);
      if (error) failures.push(error.message);
      return <p data-testid="clubs">{data ? data.clubs[0]!.name : error ? error.message : '…'}</p>;
    }
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Clubs />
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(screen.getByTestId('clubs').textContent).toBe('Downtown');
    failures.length = 0;
    const before = sent.length;

    await act(async () => {
      void auth.logout();
      await auth.login('a@b.test', 'pw');
    });
    await settle();
    await settle();
    expect(screen.getByTestId('clubs').textContent).toBe('Downtown');
    expect(failures.filter((message) => /Store reset/.test(message))).toEqual([]);
    expect(sent.slice(before).filter((each) => each.name === 'Clubs')).toEqual([{ name: 'Clubs', token: true }]);
  });
});
