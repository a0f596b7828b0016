import { ApolloLink } from '@apollo/client';
import type { TokenAuthEvent } from './core/session/TokenAuthEvent';
import type { TokenAuthOptions } from './core/session/TokenAuthOptions';
import type { TokenAuthState, TokenUser } from './core/session/TokenAuthState';
import type { SignInResult } from './core/session/SignInResult';
import type { AdoptedPair, SignInDocuments, SignInNext, SignInVariables } from './core/transports/SignInDocuments';
import { createTokenSession } from './core/session/createTokenSession';
import { systemClock } from './core/environment/Clock';
import { TokenAuthLink } from './link/TokenAuthLink';
import { setTokenAuthInternals } from './core/session/tokenAuthInternals';
import { TokenExpiredLink } from './link/TokenExpiredLink';

/**
 * A session for one token pair, and the Apollo link that uses it. See {@link createTokenAuth}. `Doors`, the type
 * of its `signIns`, types {@link TokenAuth.signIn}.
 */
export interface TokenAuth<Doors extends SignInDocuments = SignInDocuments> {
  /**
   * Put it before your terminating link: `ApolloLink.from([auth.link, new HttpLink({ uri })])`. It attaches
   * the access token and replays a `TOKEN_EXPIRED` operation once after a refresh.
   */
  readonly link: ApolloLink;
  /**
   * Logs in and starts a new session, replacing any other (whose newest pair is revoked on the service).
   * @throws `AuthRejectedError` for bad credentials; `AuthRequestError` when the service could not be reached or
   * answered something malformed. Nothing is stored then, and the failure shows as `error` in the state.
   */
  login(email: string, password: string): Promise<{ user: TokenUser }>;
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
  /**
   * Begins a session from a pair the app already holds: an invitation link, a native SDK, a migration from
   * another library. `user` is what the app knows of the user (else the access token's claims say).
   *
   * @remarks
   * It sends no request while the access token is alive. A dead one is renewed at once, by the ordinary rules
   * (its refresh token spent once): it resolves when the renewed pair is in use, and rejects as `refresh()` does
   * when it is not. The session begins as at `login`. A malformed pair rejects with a `TypeError` that says what
   * is wrong, and the current session stays. Behind a token handler the page never holds a refresh token: hand
   * the pair to the handler on your server (`handler.adopt`).
   */
  adopt(pair: AdoptedPair, user?: Partial<Pick<TokenUser, 'id' | 'email' | 'role'>>): Promise<{ user: TokenUser }>;
  /**
   * Ends the session at once on this client, then revokes its newest pair on the server. Resolves even when the
   * server cannot be reached (that failure goes to `onError`). Concurrent calls send one request.
   */
  logout(): Promise<void>;
  /**
   * Renews the pair now; concurrent callers, operations and the proactive timer share one request.
   * @throws `SessionEndedError` when there is no session or the service refused the refresh token;
   * `AuthRequestError` for a failure without a verdict (the session is kept and the refresh retried).
   * @param trigger What asked, as `onRefresh` reports it: `manual` (the default), or `socket` for a subscription
   * client whose token the server refused (what `./ws` passes).
   */
  refresh(trigger?: 'manual' | 'socket'): Promise<void>;
  /** The current state; the same object until the next change, as `useSyncExternalStore` needs. */
  getState(): TokenAuthState;
  /** The state the session started in: the server snapshot for hydration. */
  getInitialState(): TokenAuthState;
  /** Calls `listener` after every state change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /**
   * Calls `observer` with what the session does, for a timeline or a log: logins, refreshes with their trigger,
   * outcome and duration, waits, pairs followed from other tabs, operations held and replayed, the end of a
   * session and failures nobody awaits (see {@link TokenAuthEvent}). It gets the last 100 events at once, oldest
   * first, then each new one as it happens. Returns the function that stops it. No event carries a token.
   * `logTokenAuth` prints them in words, and `TokenAuthDevtools` (`apollo-link-token-pair/devtools`) shows them.
   *
   * @example Log a session's life
   * ```ts
   * const auth = createTokenAuth({ uri: '/graphql' });
   * auth.observe((event) => console.debug('[auth]', event.type, event));
   * ```
   */
  observe(observer: (event: TokenAuthEvent) => void): () => void;
  /**
   * The access token to send now, for transports outside Apollo: waits while the stored pair loads, and renews a
   * token already dead by the local clock. `null` when nobody is logged in.
   */
  getAccessToken(): Promise<string | null>;
  /**
   * Stops the timer and every listener and aborts an auth call in flight, so a process exits; a refresh already
   * sent finishes first (within `refreshTimeout`) and stores its pair, since the server has spent the old one.
   */
  dispose(): void;
}

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
