import { ApolloLink } from '@apollo/client';
import type { TokenAuthOptions } from './core/session/TokenAuthOptions';
import type { SignInResult } from './core/session/SignInResult';
import type { TokenSession } from './core/session/TokenSession';
import type { SignInDocuments, SignInNext, SignInVariables } from './core/transports/SignInDocuments';
import { createTokenSession } from './core/session/createTokenSession';
import { systemClock } from './core/environment/Clock';
import { TokenAuthLink } from './link/TokenAuthLink';
import { setTokenAuthInternals } from './core/session/tokenAuthInternals';
import { TokenExpiredLink } from './link/TokenExpiredLink';

/** The members of the session that only the links use. */
type LinkMembers = 'emit' | 'current' | 'recover' | 'check';

/**
 * A session for one token pair, and the Apollo link that uses it. See {@link createTokenAuth}. `Doors`, the type
 * of its `signIns`, types {@link TokenAuth.signIn}.
 *
 * @interface
 */
export type TokenAuth<Doors extends SignInDocuments = SignInDocuments> = Omit<TokenSession, LinkMembers | 'signIn'> & {
  /**
   * Put it before your terminating link: `ApolloLink.from([auth.link, new HttpLink({ uri })])`. It attaches
   * the access token and replays a `TOKEN_EXPIRED` operation once after a refresh.
   */
  readonly link: ApolloLink;
  /**
   * Runs the sign-in door `name` of the `signIns` option (behind a token handler, of `createTokenHandler`'s):
   * sign-up, a one-time code, a second factor, a social ID token.
   *
   * @remarks
   * When the answer carries a pair, the session begins as at `login` (the pair checked, stored and followed by the
   * tabs; the same user continues the session, another replaces it and its pair is revoked; a logout in flight
   * waits first) and it resolves `{ user }`. When it carries none (a code was sent, a second factor is required,
   * an e-mail must be confirmed), nothing changes and it resolves `{ next }`, the field's value as the server sent
   * it. A refusal rejects with `AuthRejectedError` (the server's words and code), no verdict with
   * `AuthRequestError`; the session stays as it was, and the failure shows as `error` in the state. A name that
   * is not a door rejects at once, naming those there are, and sends nothing.
   *
   * @example A code sent by e-mail, then the code
   * ```ts
   * const REQUEST_CODE = 'mutation ($email: String!) { requestSignInCode(email: $email) { email expiresIn } }';
   * const WITH_CODE =
   *   'mutation ($email: String!, $code: String!) { signInWithCode(email: $email, code: $code) { accessToken refreshToken user { id email role } } }';
   * declare const email: string, code: string; // what the person typed
   *
   * const auth = createTokenAuth({ uri: '/graphql', signIns: { requestCode: REQUEST_CODE, withCode: WITH_CODE } });
   * await auth.signIn('requestCode', { email }); // { next: { email, expiresIn } }: show the code field
   * const { user } = await auth.signIn('withCode', { email, code });
   * ```
   */
  signIn<Name extends keyof Doors & string>(
    name: Name,
    variables?: SignInVariables<Doors[Name]>,
  ): Promise<SignInResult<SignInNext<Doors[Name]>>>;
};

/**
 * Creates the client side of a JWT access/refresh token pair: a session that logs in, refreshes (once, however
 * many ask), renews proactively before expiry and logs out, and `link`, the Apollo link that uses it.
 *
 * @example
 * ```ts
 * import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
 *
 * const auth = createTokenAuth({ uri: '/graphql' });
 * const client = new ApolloClient({
 *   link: ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]),
 *   cache: new InMemoryCache(),
 * });
 * await auth.login('admin@example.com', 'secret');
 * ```
 */
export function createTokenAuth<Doors extends SignInDocuments = SignInDocuments>(
  options: TokenAuthOptions<Doors>,
): TokenAuth<Doors> {
  const session = createTokenSession(options);
  const link = ApolloLink.from([
    // The link reads its two predicates from the options.
    new TokenExpiredLink({ ...options, auth: session }),
    new TokenAuthLink({ auth: session }),
  ]);
  // A fresh object with the members of TokenAuth and no others: the links hold the session itself, the other
  // entries find it (and the app's isTokenExpiredError) through `apollo-link-token-pair/internal`.
  const auth: TokenAuth<Doors> = {
    link,
    login: (email, password) => session.login(email, password),
    // Typed by `Doors` for the app; the session runs any door by name.
    signIn: (name, variables) => session.signIn(name, variables) as Promise<never>,
    adopt: (pair, user) => session.adopt(pair, user),
    logout: () => session.logout(),
    refresh: (trigger) => session.refresh(trigger),
    getState: () => session.getState(),
    getInitialState: () => session.getInitialState(),
    subscribe: (listener) => session.subscribe(listener),
    observe: (observer) => session.observe(observer),
    getAccessToken: () => session.getAccessToken(),
    dispose: () => session.dispose(),
  };
  setTokenAuthInternals(auth, {
    session,
    isTokenExpiredError: options.isTokenExpiredError,
    clock: options.clock ?? systemClock,
  });
  return auth;
}
