// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { createTokenStore, type TokenAuth } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { makePair } from '../helpers/jwt';
import { useLocalSessions } from '../helpers/localSessions';
import { APP_ME, CLUBS, recordingApi } from '../helpers/recordingApi';

const { session, settle } = useLocalSessions();

const meLink = new ApolloLink(
  () =>
    new Observable((observer) => {
      observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test' } } });
      observer.complete();
    }),
);

function Restoring() {
  const { error } = useAuth();
  return <p data-testid="screen">Restoring your session…{error ? ` (${error.message})` : ''}</p>;
}

function Account() {
  const { user } = useAuth();
  return <p data-testid="screen">Signed in as {user?.email}</p>;
}

function mount(auth: TokenAuth) {
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() });
  const seen: string[] = [];
  render(
    <StrictMode>
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>
          <AuthGate loading={<Restoring />} fallback={<p data-testid="screen">Sign in</p>}>
            <Account />
          </AuthGate>
        </TokenAuthProvider>
      </ApolloProvider>
    </StrictMode>,
  );
  const record = () => seen.push(screen.getByTestId('screen').textContent ?? '');
  return { seen, record };
}

describe('AuthGate', () => {
  // Found following a newcomer's app: a store that failed its first read (a Keychain locked until the first unlock
  // after a reboot) signed the user out for the whole run. Now the screen waits, says why, and shows the user once a
  // read succeeds.
  it('a store whose first read fails: shows the loading screen with the reason, then the signed-in screen after the retry, never the sign-in form in between', async () => {
    const pair = makePair('stored');
    const errors = [new Error('User interaction is not allowed.')];
    const store = createTokenStore({
      get: () => (errors.length ? Promise.reject(errors.shift()!) : Promise.resolve(pair)),
      set: () => {},
      clear: () => {},
    });
    const auth = session({ store, retryDelay: 3_000, onError: () => {} });
    const { seen, record } = mount(auth);
    record();
    for (let ms = 0; ms < 4_000; ms += 250) {
      await act(() => vi.advanceTimersByTimeAsync(250));
      record();
    }
    expect(seen).toContain(
      'Restoring your session… (The token store could not be read: User interaction is not allowed.)',
    );
    expect(seen.at(-1)).toBe('Signed in as a@b.test');
    expect(seen).not.toContain('Sign in');
  });

  // Found following a newcomer's app: a screen behind <AuthGate> whose query went out once more, without a token,
  // at sign-out.
  it('at sign-out, no query of a screen behind <AuthGate> goes out; one outside it is fetched again', async () => {
    const auth = session();
    const { sent, link } = recordingApi();
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
});
