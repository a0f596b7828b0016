// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenStore, type TokenAuth } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { makePair } from '../helpers/jwt';
import { service } from '../helpers/jwtService';
import { TIME } from '../helpers/session';

// Found following a newcomer's app: a store that failed its first read (a Keychain locked until the first unlock
// after a reboot) signed the user out for the whole run. Now the screen waits, says why, and shows the user once a
// read succeeds.

const disposers: Array<() => void> = [];
beforeEach(() => void vi.useFakeTimers({ now: TIME.T0 }));
afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
  vi.useRealTimers();
});

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
  disposers.push(() => auth.dispose());
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

describe('a store whose first read fails, on screen', () => {
  it('shows the signed-in screen after the retry, never the sign-in form in between', async () => {
    const pair = makePair('stored');
    const errors = [new Error('User interaction is not allowed.')];
    const store = createTokenStore({
      get: () => (errors.length ? Promise.reject(errors.shift()!) : Promise.resolve(pair)),
      set: () => {},
      clear: () => {},
    });
    const auth = createTokenAuth({
      uri: 'http://unused.test',
      transport: service().transport,
      store,
      retryDelay: 3_000,
      refreshOnResume: false,
      onError: () => {},
    });
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
});
