import { isTokenExpiredError, isUnauthenticatedError } from '../index';

/**
 * For a server render's query: an answer that says the request is not signed in (`UNAUTHENTICATED`, HTTP 401,
 * `TOKEN_EXPIRED`) becomes `null`, so the page renders signed out; any other failure is thrown again.
 *
 * @remarks
 * A session can end between the moment a render got its access token and the moment the API reads it: a logout
 * in another tab, an admin's revocation, a reload right after "sign out". Rendering the sign-in view then is
 * what the browser will show anyway, where a thrown error would be an HTTP 500.
 *
 * @example
 * ```ts
 * import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
 *
 * const client = new ApolloClient({ link: new HttpLink({ uri: 'https://api.example.com/graphql' }), cache: new InMemoryCache() });
 * const ME = gql`query Me { me { id email } }`;
 * const me = await client.query<{ me: { id: string } }>({ query: ME }).then(({ data }) => data?.me ?? null, asSignedOut);
 * ```
 */
export function asSignedOut(error: unknown): null {
  if (isUnauthenticatedError(error) === true || isTokenExpiredError(error)) return null;
  throw error;
}
