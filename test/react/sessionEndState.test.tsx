// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  shareTokenStore,
  type TokenAuth,
  type TokenStore,
} from '../../src';
import { TokenAuthProvider, useAuth } from '../../src/react';
import { revoked, service } from '../helpers/jwtService';
import { TIME } from '../helpers/session';

const { T0 } = TIME;
const disposers: Array<() => void> = [];

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
  vi.useRealTimers();
});

/** What a "you were signed out" banner would say, from `useAuth()` alone. */
function Banner() {
  const { status, ended, reconnecting } = useAuth();
  const why = !ended
    ? '-'
    : `${ended.reason}${ended.elsewhere ? ' elsewhere' : ''}${ended.rejection ? ` ${ended.rejection}` : ''} at ${ended.at - T0}`;
  return (
    <p data-testid="banner">
      {status} / {why} / {reconnecting ? 'reconnecting' : 'connected'}
    </p>
  );
}

// `me` answered locally: this test is about the session's state, not the network.
const meLink = new ApolloLink(
  () =>
    new Observable((observer) => {
      observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test' } } });
      observer.complete();
    }),
);

function mount(auth: TokenAuth) {
  disposers.push(() => auth.dispose());
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, meLink]), cache: new InMemoryCache() });
  render(
    <StrictMode>
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>
          <Banner />
        </TokenAuthProvider>
      </ApolloProvider>
    </StrictMode>,
  );
}

const banner = () => screen.getByTestId('banner').textContent;
const settle = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

function tab(transport: ReturnType<typeof service>['transport'], store?: TokenStore, retryDelay?: number) {
  return createTokenAuth({ uri: 'http://unused.test', transport, store, refreshOnResume: false, retryDelay });
}

describe('useAuth(): ended and reconnecting (StrictMode, fake timers)', () => {
  it('a logout here, then the next login clears it', async () => {
    const auth = tab(service().transport);
    mount(auth);
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    expect(banner()).toBe('authenticated / - / connected');
    await settle(1000);
    await act(() => auth.logout());
    expect(banner()).toBe('unauthenticated / logout at 1000 / connected');
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    expect(banner()).toBe('authenticated / - / connected');
  });

  it('a logout in another tab, and a login as someone else in another tab', async () => {
    const { transport } = service();
    const store = shareTokenStore(createMemoryTokenStore());
    const other = tab(transport, store);
    const auth = tab(transport, store);
    disposers.push(() => other.dispose());
    mount(auth);
    await act(() => other.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(banner()).toBe('authenticated / - / connected');
    await act(() => other.logout());
    await settle();
    expect(banner()).toBe('unauthenticated / logout elsewhere at 0 / connected');
    await act(() => other.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(banner()).toBe('authenticated / - / connected');
    await act(() => other.login('c@d.test', 'pw').then(() => {}));
    await settle();
    expect(banner()).toBe('authenticated / replaced elsewhere at 0 / connected');
  });

  it('a refresh token rejected as revoked, and one past its exp as expired', async () => {
    const revokedOne = service();
    const a = tab(revokedOne.transport);
    mount(a);
    await act(() => a.login('a@b.test', 'pw').then(() => {}));
    revokedOne.control.refuse = revoked();
    await act(() => a.refresh().catch(() => {}));
    expect(banner()).toBe('unauthenticated / rejected revoked at 0 / connected');
    cleanup();

    const expiring = service({ refreshLife: 10 * 60_000 });
    const b = tab(expiring.transport);
    mount(b);
    await act(() => b.login('a@b.test', 'pw').then(() => {}));
    expiring.control.refuse = revoked();
    // The proactive refresh, 12.5 minutes in, finds the 10-minute refresh token dead.
    await settle(12.5 * 60_000);
    expect(expiring.control.refreshes).toBe(1);
    expect(banner()).toBe('unauthenticated / rejected expired at 750000 / connected');
  });

  it('reconnecting while a failed refresh waits for its retry, connected again once it succeeds', async () => {
    const { transport, control } = service();
    const auth = tab(transport, undefined, 5_000);
    mount(auth);
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    control.refuse = new AuthRequestError('refreshToken failed on the network.', 'refreshToken');
    await act(() => auth.refresh().catch(() => {}));
    expect(banner()).toBe('authenticated / - / reconnecting');
    control.refuse = undefined;
    await settle(4_999);
    expect(banner()).toBe('authenticated / - / reconnecting');
    await settle(1);
    expect(control.refreshes).toBe(2);
    expect(banner()).toBe('authenticated / - / connected');
  });
});
