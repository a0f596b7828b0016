import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStore } from '../stores/TokenStore';
import type { AnyVariables } from './SignInDocuments';

/** A pair as a transport hands it over, before the session checks it; with the user, after a login. */
export interface TransportAnswer {
  readonly accessToken: unknown;
  readonly refreshToken: unknown;
  /** What the login answer says of the user: `id`, `email`, `role`. */
  readonly user?: unknown;
  /**
   * How long ago the access token was issued, in ms, when it was not issued for this answer (a token handler
   * answering with the token its cookie holds): the session times it from then.
   */
  readonly age?: unknown;
}

/**
 * What a transport's {@link TokenAuthTransport.signIn} resolves: a pair (with the user, if the answer named it),
 * which the session checks as a login's; or `{ next }`, the answer's value when it carries no pair (a code was
 * sent, a second factor is required), which begins nothing.
 */
export type SignInAnswer = TransportAnswer | { readonly next: unknown };

/**
 * How the session reaches the auth service: log in, refresh, log out.
 *
 * @remarks
 * The default, {@link createGraphQLTransport}, posts the spec's three mutations. Pass your own for a REST
 * endpoint or a token handler. Each call resolves the answer or throws: an {@link AuthRejectedError} for a
 * verdict (wrong credentials, a refresh token that is used, revoked or expired), an {@link AuthRequestError}
 * (or any other error) when there is no verdict: the network, a timeout, a 5xx. The session bounds each call
 * by `refreshTimeout`, aborts `signal` then or on `dispose()`, and checks every pair it is handed.
 *
 * @example A REST refresh endpoint, with the spec's mutations for the rest:
 * ```ts
 * const graphql = createGraphQLTransport({ uri: '/graphql' });
 * const transport: TokenAuthTransport = {
 *   ...graphql,
 *   async refresh(refreshToken, signal) {
 *     const response = await fetch('/auth/refresh', { method: 'POST', body: JSON.stringify({ refreshToken }), signal });
 *     if (response.status === 401) throw new AuthRejectedError('Refresh refused', 'refreshToken', []);
 *     if (!response.ok) throw new AuthRequestError(`Refresh failed: HTTP ${response.status}`, 'refreshToken', response.status);
 *     return response.json();
 *   },
 * };
 * ```
 */
export interface TokenAuthTransport {
  /** Exchanges credentials for a pair and the user. */
  login(email: string, password: string, signal: AbortSignal): Promise<TransportAnswer>;
  /**
   * Runs the sign-in door `name` with `variables` (`auth.signIn`): the app's own mutation (sign-up, a one-time
   * code, a second factor, a social ID token), or the token handler's route that runs it. Errors as `login`'s.
   * Absent on a transport that has no doors.
   */
  signIn?(name: string, variables: AnyVariables, signal: AbortSignal): Promise<SignInAnswer>;
  /**
   * The names of the doors `signIn` runs, when the transport knows them here: a name not among them is refused
   * at once, and nothing is sent. Absent when only the service knows them (a token handler's).
   */
  readonly signIns?: readonly string[];
  /** Exchanges the single-use refresh token for a new pair. */
  refresh(refreshToken: string, signal: AbortSignal): Promise<TransportAnswer>;
  /**
   * Revokes the pair on the service: after `logout()`, and for the newest pair of a session that a login
   * replaced (unless `ownsSession`).
   */
  logout(pair: TokenPair, signal: AbortSignal): Promise<unknown>;
  /**
   * `true` when the service keeps this client's session itself (a token handler's cookie): a login there ends
   * the session it replaces, so `logout` is sent only by `logout()`. `refresh` may then throw a
   * `SessionEndedError`: reason `no-session` when the service holds no session for this client, `logout` when
   * it was logged out.
   */
  readonly ownsSession?: boolean;
  /**
   * The store the session keeps its pair in, for a transport that decides it (a token handler's page holds the
   * access token only): used in place of the `store` option.
   */
  readonly store?: TokenStore;
}
