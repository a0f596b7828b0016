// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { createTokenAuth, type TokenAuthTransport } from 'apollo-link-token-pair';
import { TokenAuthProvider, useAuth } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { of } from 'rxjs';
import { expect, test } from 'vitest';

// A stand-in for the auth service: anyone may log in, as an ADMIN, with a 15-minute token.
const claims = (email: string) => ({ sub: email, email, role: 'ADMIN', exp: Math.floor(Date.now() / 1000) + 900 });
const jwt = (email: string) => `e30.${Buffer.from(JSON.stringify(claims(email))).toString('base64url')}.sig`;
const transport: TokenAuthTransport = {
  login: async (email) => ({ accessToken: jwt(email), refreshToken: 'r1' }),
  refresh: async () => ({ accessToken: jwt('ada@example.com'), refreshToken: 'r2' }),
  logout: async () => ({}),
};

function Greeting() {
  const { user, hasRole } = useAuth();
  return <p>{user ? `${user.email}${hasRole('ADMIN') ? ' (admin)' : ''}` : 'Signed out'}</p>;
}

test('shows who is signed in, then that nobody is', async () => {
  const auth = createTokenAuth({ transport, refreshOnResume: false });
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, new ApolloLink(() => of({ data: { me: null } }))]), cache: new InMemoryCache() });
  render(<StrictMode><ApolloProvider client={client}><TokenAuthProvider auth={auth}><Greeting /></TokenAuthProvider></ApolloProvider></StrictMode>);
  expect(screen.getByText('Signed out')).toBeTruthy();
  await act(() => auth.login('ada@example.com', 'secret'));
  expect(screen.getByText('ada@example.com (admin)')).toBeTruthy();
  await act(() => auth.logout());
  expect(screen.getByText('Signed out')).toBeTruthy();
  auth.dispose();
});
