// src/auth.ts: the session and the Apollo client, created once for the page.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createTokenAuth, createTokenHandlerTransport } from 'apollo-link-token-pair';

// The API, which the page calls directly with the access token (it must allow the page's origin: CORS).
const uri = import.meta.env.VITE_GRAPHQL_URL;

// Sign-in, refresh and sign-out go to the token handler on the page's own origin (tokenHandlerPlugin.ts in
// development, server.ts in production): the refresh token stays in its HttpOnly cookie, and a page load restores
// the session with one POST /auth/refresh.
export const auth = createTokenAuth({
  transport: createTokenHandlerTransport('/auth'),
  refreshOnResume: browserResume(),
});

export const client = new ApolloClient({
  link: ApolloLink.from([auth.link, new HttpLink({ uri })]),
  cache: new InMemoryCache(),
});
