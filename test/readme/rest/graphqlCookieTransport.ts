// A GraphQL server that keeps the refresh token in an HttpOnly cookie of its own: renewSession reads the cookie and
// takes no argument, signOut clears it. The GraphQL transport's calls, the cookie session's store, and a refusal at
// a page load told as a first visit make the transport.
import {
  AuthRejectedError,
  COOKIE_STAND_IN,
  createCookieSessionStore,
  createGraphQLTransport,
  SessionEndedError,
  type TokenAuthTransport,
} from 'apollo-link-token-pair';

export function graphqlCookieTransport(uri: string): TokenAuthTransport {
  const graphql = createGraphQLTransport({
    uri,
    // An API of another origin gets its cookie only with credentials: 'include'.
    fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
    documents: {
      login: `mutation ($email: String!, $password: String!) {
        loginWithEmailPassword(email: $email, password: $password) { accessToken user { id email role } } }`,
      refresh: 'mutation { refreshToken: renewSession { accessToken } }',
      logout: 'mutation { logout: signOut }',
    },
  });
  return {
    ...graphql,
    ownsSession: true,
    store: createCookieSessionStore(`my-app ${uri}`),
    refresh: (token, signal) =>
      graphql.refresh(token, signal).catch((error: unknown) => {
        // Refused at a page load: nobody was signed in in this browser, no session ended.
        throw token === COOKIE_STAND_IN && AuthRejectedError.is(error)
          ? new SessionEndedError('no-session', error)
          : error;
      }),
  };
}
