import { ApolloLink } from '@apollo/client';
import type { TokenAuthOptions } from './core/TokenAuthOptions';
import type { TokenAuthState, TokenUser } from './core/TokenAuthState';
import { createTokenSession } from './core/TokenSession';
import { TokenAuthLink } from './link/TokenAuthLink';
import { TokenExpiredLink } from './link/TokenExpiredLink';

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
  /** {@inheritDoc TokenSession.getInitialState} */
  getInitialState(): TokenAuthState;
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
  const session = createTokenSession(options);
  const link = ApolloLink.from([
    // The link reads its two predicates from the options.
    new TokenExpiredLink({ ...options, auth: session }),
    new TokenAuthLink({ auth: session }),
  ]);
  // The engine's internal members (the links' view of it) stay out of the TokenAuth type.
  return Object.assign(session, { link });
}
