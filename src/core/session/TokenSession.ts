import type { AdoptedPair, AnyVariables } from '../transports/SignInDocuments';
import type { SignInResult } from './SignInResult';
import type { SentToken } from './SessionRecord';
import type { TokenAuthEvent, TokenAuthEventBody } from './TokenAuthEvent';
import type { RefreshTrigger } from './refreshTriggers';
import type { TokenAuthState, TokenUser } from './TokenAuthState';
export type { Epoch, SentToken } from './SessionRecord';

/**
 * The token state that the links, the timer and the React binding share: the pair, the single in-flight
 * refresh, and the proactive timer. One per session; sessions that share a store do so through the store's
 * seam, never through each other.
 */
export interface TokenSession {
  /** The current state; the same object until the next change, as `useSyncExternalStore` needs. */
  getState(): TokenAuthState;
  /** The state the session started in: the server snapshot for hydration, the same on server and client. */
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
   * Tells the observers what an operation met (held for a pair, replayed).
   * @internal Used by the links.
   */
  emit(event: TokenAuthEventBody): void;
  /**
   * Logs in and starts a new session, replacing any other (whose newest pair is revoked on the service).
   *
   * @throws `AuthRejectedError` (code `INVALID_CREDENTIALS` or what the server sends) for bad credentials;
   * `AuthRequestError` when the service could not be reached or answered something malformed. Nothing is
   * stored then, and the failure shows as `error` in the state.
   */
  login(email: string, password: string): Promise<{ user: TokenUser }>;
  /**
   * Runs the sign-in door `name` (see `TokenAuth.signIn`): a pair begins the session as `login` does; an answer
   * without one resolves `{ next }` and changes nothing. An unknown name rejects at once, and nothing is sent.
   */
  signIn(name: string, variables?: AnyVariables): Promise<SignInResult>;
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
   * Ends the session: at once on this client, then on the server.
   *
   * @remarks
   * Resolves even when the server cannot be reached (that failure goes to `onError`): the local session is
   * over either way. Operations waiting for a refresh fail with `SessionEndedError`, and sessions sharing the
   * store end too. The newest pair is the one revoked, and concurrent calls send one request.
   */
  logout(): Promise<void>;
  /**
   * Renews the pair now.
   *
   * @remarks
   * Single flight: concurrent callers, operations and the proactive timer share one request.
   *
   * @throws `SessionEndedError` when there is no session or the service refused the refresh token (the
   * session is then over); `AuthRequestError` for a failure without a verdict (the session is kept and the
   * refresh retried).
   * @param trigger What asked, as `onRefresh` reports it: `manual` (the default), or `socket` for a subscription
   * client whose token the server refused (what `./ws` passes).
   */
  refresh(trigger?: Extract<RefreshTrigger, 'manual' | 'socket'>): Promise<void>;
  /**
   * The access token to send now, for transports outside Apollo: waits while the stored pair loads, and renews a
   * token already dead by the local clock. `null` when nobody is logged in.
   */
  getAccessToken(): Promise<string | null>;
  /**
   * The session an operation goes out with, synchronously when no wait is needed, which is almost always. A
   * token that is still valid is used even while a refresh is out: only a dead one waits.
   * @internal Used by the links.
   */
  current(): SentToken | null | Promise<SentToken | null>;
  /**
   * The session to replay with after an operation sent with `sent` was answered `TOKEN_EXPIRED` (or
   * unauthenticated): the pair that replaced it already, or the one the single refresh brings. Never one of
   * another epoch: an operation does not run as another user.
   * @internal Used by the links.
   */
  recover(sent: SentToken | undefined): Promise<SentToken>;
  /**
   * Whether an operation sent with `sent` and refused with `failure` (an error that may mean the session is dead,
   * but says nothing for sure) should be replayed: the session checks itself with a refresh when the failure is
   * worth one. Resolves `true` once renewed (replay), `false` when not worth a check or the check got no verdict
   * (pass the failure on); rejects with `SessionEndedError` when the refresh was refused: the session was dead.
   * @internal Used by the links.
   */
  check(sent: SentToken | undefined, failure: string): Promise<boolean>;
  /**
   * Stops the timer and every listener, and aborts an auth call in flight, so that a process can exit. A refresh
   * already sent is the exception on a store that outlives the process: the server has spent its refresh token,
   * so it finishes (within `refreshTimeout`) and stores its pair before the store is let go. On the memory store
   * it is aborted too, and the spent pair cleared: nothing reads it after this session. Waiting operations fail at
   * once. The stored pair stays.
   */
  dispose(): void;
}
