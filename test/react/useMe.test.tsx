// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { useLocalSessions } from '../helpers/localSessions';
import { APP_ME, recordingApi } from '../helpers/recordingApi';

// The provider's `me` query (useMe): what a newcomer's first app met, found following it: two `me` requests per
// sign-in (the provider's and the app's own), and no word of an auth.link placed after the link that sends
// operations, whose requests then went out without a token.

const { session, settle } = useLocalSessions();

describe('useMe', () => {
  it('auth.link after the link that sends operations: the console names the fix; in its place, nothing is said', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const order of ['wrong', 'right'] as const) {
      const auth = session();
      const { sent, link } = recordingApi();
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
    const { sent, link } = recordingApi();
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
    const { sent, link } = recordingApi();
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
});
