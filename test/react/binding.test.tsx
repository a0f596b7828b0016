// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, StrictMode } from 'react';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, type TokenAuthTransport } from '../../src';
import { decodeAccessToken } from '../../src/core/tokens/readTokenPair';
import { TokenAuthProvider, useAuth } from '../../src/react';
import { makeJwt } from '../helpers/jwt';

const disposers: Array<() => void> = [];
afterEach(() => {
  // React unmounts before the sessions it reads are disposed.
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
});

/** Each e-mail is its own user, `u_<name>`. */
const userOf = (email: string) => ({ id: `u_${email.split('@')[0]}`, email });

let issued = 0;
function pairFor(email: string) {
  const iat = Math.floor(Date.now() / 1000);
  const { id } = userOf(email);
  return { accessToken: makeJwt({ sub: id, email, iat, exp: iat + 900 }), refreshToken: `refresh-${id}-${++issued}` };
}

/** An auth service that logs anyone in as the user of the e-mail given. */
const transport: TokenAuthTransport = {
  login: async (email) => ({ ...pairFor(email), user: userOf(email) }),
  refresh: async () => {
    throw new Error('no refresh expected');
  },
  logout: async () => ({}),
};

/**
 * A session, an Apollo client on it whose server answers `me` as the user of the access token sent (recorded in
 * `meAskedAs`), and the tree to render: `children` inside the provider, in StrictMode.
 */
function mount() {
  const auth = createTokenAuth({
    uri: 'http://auth.test/graphql',
    transport,
    store: createMemoryTokenStore(),
    refreshOnResume: false,
  });
  disposers.push(() => auth.dispose());
  const meAskedAs: string[] = [];
  const server = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const { authorization = '' } = (operation.getContext().headers ?? {}) as Record<string, string>;
        const { sub, email } = decodeAccessToken(authorization.replace(/^Bearer /, ''));
        meAskedAs.push(String(sub));
        observer.next({ data: { me: { __typename: 'User', id: sub, email } } });
        observer.complete();
      }),
  );
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, server]), cache: new InMemoryCache() });
  const tree = (children: ReactNode) => (
    <StrictMode>
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>{children}</TokenAuthProvider>
      </ApolloProvider>
    </StrictMode>
  );
  return { auth, meAskedAs, tree };
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('useAuth with a selector', () => {
  function Greeting({ name }: { name: string }) {
    const greeting = useAuth((auth) => `${name} is ${auth.status}`);
    return <p data-testid="greeting">{greeting}</p>;
  }

  it("re-renders with the new prop's result when the selector closes over a prop that changed, the state unchanged", () => {
    const { tree } = mount();
    const view = render(tree(<Greeting name="Ann" />));
    expect(text('greeting')).toBe('Ann is unauthenticated');

    view.rerender(tree(<Greeting name="Bob" />));

    expect(text('greeting')).toBe('Bob is unauthenticated');
  });
});

describe('me', () => {
  it("becomes the new user's, and is never the previous user's, after a login as someone else made on the session directly", async () => {
    const { auth, meAskedAs, tree } = mount();
    // Every render of the pair `user/me`, as the app would show it.
    const shown: string[] = [];
    function Account() {
      const { user, me } = useAuth();
      const pair = `${user?.id ?? '-'}/${me?.id ?? '-'}`;
      shown.push(pair);
      return <p data-testid="account">{pair}</p>;
    }
    render(tree(<Account />));
    await act(() => auth.login('ann@x.test', 'pw'));
    await waitFor(() => expect(text('account')).toBe('u_ann/u_ann'));
    shown.length = 0;

    // Not through useAuth's login, so nothing resets the Apollo cache: the binding alone must drop Ann's `me`.
    await act(() => auth.login('bob@x.test', 'pw'));
    await waitFor(() => expect(text('account')).toBe('u_bob/u_bob'));

    expect(shown).not.toContain('u_bob/u_ann');
    // Bob, with no `me` yet or his own: React 19 renders him before his `me` arrives, React 18 may batch both.
    expect(shown.filter((pair) => pair !== 'u_bob/-' && pair !== 'u_bob/u_bob')).toEqual([]);
    expect(shown.at(-1)).toBe('u_bob/u_bob');
    // Asked once as each user: Bob's `me` came from a query sent with Bob's token.
    expect(meAskedAs).toEqual(['u_ann', 'u_bob']);
  });
});
