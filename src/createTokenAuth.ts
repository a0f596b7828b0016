import { ApolloLink } from '@apollo/client';
import { TokenSession, type TokenSessionOptions } from './core/TokenSession';
import type { TokenAuthState, TokenUser } from './core/TokenAuthState';
import { TokenAuthLink } from './link/TokenAuthLink';
import { TokenExpiredLink } from './link/TokenExpiredLink';

/** Options of {@link createTokenAuth}. */
export interface TokenAuthOptions extends TokenSessionOptions {
  /**
   * Decides whether an operation failed because its access token expired; it is then refreshed and replayed
   * once.
   * @defaultValue `isTokenExpiredError`: a GraphQL error with `extensions.code === 'TOKEN_EXPIRED'`
   */
  isTokenExpiredError?: TokenExpiredLink.Options['isTokenExpiredError'];
}

/** A session for one token pair, and the Apollo link that uses it. See {@link createTokenAuth}. */
export interface TokenAuth {
  /**
   * Put it before your terminating link: `ApolloLink.from([auth.link, new HttpLink({ uri })])`. It attaches
   * the access token and replays a `TOKEN_EXPIRED` operation once after a refresh.
   */
  readonly link: ApolloLink;
  /** {@inheritDoc TokenSession.login} */
  login(email: string, password: string): Promise<{ user: TokenUser }>;
  /** {@inheritDoc TokenSession.logout} */
  logout(): Promise<void>;
  /** {@inheritDoc TokenSession.refresh} */
  refresh(): Promise<void>;
  /** {@inheritDoc TokenSession.getState} */
  getState(): TokenAuthState;
  /** {@inheritDoc TokenSession.subscribe} */
  subscribe(listener: () => void): () => void;
  /** {@inheritDoc TokenSession.getAccessToken} */
  getAccessToken(): Promise<string | null>;
  /** {@inheritDoc TokenSession.dispose} */
  dispose(): void;
}

/**
 * Creates the client side of a JWT access/refresh token pair: a session that logs in, refreshes (once, however
 * many ask), renews proactively before expiry and logs out, and `link`, the Apollo link that uses it.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri: '/graphql' });
 * const client = new ApolloClient({
 *   link: ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]),
 *   cache: new InMemoryCache(),
 * });
 * await auth.login('admin@example.com', 'secret');
 * ```
 */
export function createTokenAuth(options: TokenAuthOptions): TokenAuth {
  const session = new TokenSession(options);
  const link = ApolloLink.from([
    new TokenExpiredLink({ auth: session, isTokenExpiredError: options.isTokenExpiredError }),
    new TokenAuthLink({ auth: session }),
  ]);
  const { login, logout, refresh, getState, subscribe, getAccessToken, dispose } = session;
  return { link, login, logout, refresh, getState, subscribe, getAccessToken, dispose };
}
