import type { ApolloLink } from '@apollo/client';
import type { Clock } from '../environment/Clock';
import type { ResumeSource } from '../environment/ResumeSource';
import type { SessionEndReason } from '../errors/SessionEndedError';
import type { SessionEnd } from './TokenAuthState';
import type { RefreshTrigger } from './refreshTriggers';
import type { AuthRejectedError } from '../errors/AuthRejectedError';
import type { AuthCall } from '../transports/isRefusal';
import type { TokenAuthTransport } from '../transports/TokenAuthTransport';
import type { TokenStore } from '../stores/TokenStore';
import type { SignInDocuments } from '../transports/SignInDocuments';
import type { ReadUser } from './readTokenUser';

/** Options of `createTokenAuth`; `Doors`, the type of `signIns`, types `auth.signIn`. */
export interface TokenAuthOptions<Doors extends SignInDocuments = SignInDocuments> {
  /**
   * The GraphQL endpoint that serves `loginWithEmailPassword`, `refreshToken` and `logout`. Needed unless
   * `transport` is given.
   */
  uri?: string;
  /**
   * How login, refresh and logout reach the service: `createTokenHandlerTransport('/auth')` for a token handler
   * (the refresh token in its `HttpOnly` cookie, never in the page), or your own for a REST endpoint. A transport
   * that brings its own store (a token handler's) is used with it, and `store` is ignored.
   * @defaultValue `createGraphQLTransport({ uri, fetch, headers, isRefusal })`: the spec's three mutations
   */
  transport?: TokenAuthTransport;
  /**
   * The app's own mutations that begin a session besides `loginWithEmailPassword`, by name, for
   * `auth.signIn(name, variables)`: sign-up, a one-time code, a second factor, a social ID token. Each is a string
   * or a `DocumentNode` (typed when it is a `TypedDocumentNode`) that selects one top-level field: an answer with
   * a pair (`accessToken`, `refreshToken`, optionally `user`, aliased to these names where the server names them
   * otherwise; a union works the same way) begins the session, any other is the `next` step. For the default
   * transport; behind a token handler they belong to `createTokenHandler({ signIns })`, on the server.
   * @example
   * ```ts
   * import { gql } from '@apollo/client';
   *
   * const auth = createTokenAuth({
   *   uri: '/graphql',
   *   signIns: {
   *     register: gql`
   *       mutation Register($email: String!, $password: String!) {
   *         register(email: $email, password: $password) { accessToken refreshToken user { id email role } }
   *       }
   *     `,
   *   },
   * });
   * await auth.signIn('register', { email: 'ada@example.com', password: 'correct horse' });
   * ```
   */
  signIns?: Doors;
  /** The `fetch` of the default transport (ignored with `transport`). @defaultValue `globalThis.fetch`, read at call time */
  fetch?: typeof fetch;
  /**
   * Extra headers the default transport sends with the auth mutations (ignored with `transport`; not sent with
   * your operations: set those on `HttpLink`).
   */
  headers?: Record<string, string>;
  /**
   * Decides, for the default transport, whether the GraphQL errors a login, refresh or logout was answered with
   * are a refusal (`true`), the server failing (`false`: retried with backoff, the session kept) or either
   * (`'maybe'`: a refresh answered so three times in a row ends the session). Set it for a server whose
   * refusals carry codes of its own. Ignored with `transport`.
   * @defaultValue `isRefusal`: no code is a verdict, `INTERNAL_SERVER_ERROR` is `'maybe'`, a gateway's failure
   * code is a failure, any other code a verdict; at login any error but a gateway's is a refusal
   */
  isRefusal?: (error: AuthRejectedError, call: AuthCall) => boolean | 'maybe';
  /**
   * Where the pair is kept. `window.localStorage` is refused with an error, as the spec forbids it. Sessions
   * that share one store must share it through `shareTokenStore(store)`.
   * @defaultValue `createMemoryTokenStore()`
   */
  store?: TokenStore;
  /**
   * How long a store call may take before it counts as failed, in ms.
   * @defaultValue `10_000`
   */
  storeTimeout?: number;
  /**
   * The least time between two refreshes of this session, in ms, whatever asks for them: the proactive timer,
   * its retries, operations refused as expired, a pair that looks dead by a skewed clock. Only a login and
   * `refresh()` called by the app start one sooner; the session's end cuts the wait short.
   * @defaultValue `5_000`
   */
  refreshFloor?: number;
  /**
   * How long before the access token expires the proactive refresh runs, in ms.
   * @defaultValue `150_000` (2.5 minutes, inside the spec's 2 to 3)
   */
  refreshLeadTime?: number;
  /**
   * How long a login, refresh or logout may take before it fails with an `AuthRequestError`, in ms. A refresh
   * gets one more second to read an answer that came in as this ran out (a page frozen with its refresh on the
   * wire thaws with both due): its token is spent, and sending it again would be reuse.
   * @defaultValue `30_000`
   */
  refreshTimeout?: number;
  /**
   * The wait before retry number `attempt` (from 1) after a refresh failed with no verdict (network, 5xx,
   * timeout, an uncertain refusal). While a retry is scheduled, an operation that needs a new pair waits for it
   * when it is due within 10 s, and fails at once with the failure it waits out when it is due later (or the
   * app is offline), instead of sending a refresh of its own.
   * @defaultValue full jitter: a random time up to 1 s, 2 s, 4 s … capped at 30 s
   */
  retryDelay?: number | ((attempt: number) => number);
  /**
   * The access-token claim that holds the role.
   * @defaultValue `'role'`
   */
  roleClaim?: string;
  /**
   * Reads the user from the access token's claims and what the sign-in answer said of the user (`answer`, absent
   * after a refresh: then the user the session knew), for a server whose tokens name them otherwise than `sub`,
   * `email` and one `role`: `userId`, a list `roles[]`, a flag `isAdmin`. A role may be one name or a list;
   * `hasRole` and `<AuthGate role>` read every one. Also hand it to `getServerState` on a server that renders.
   * @defaultValue the answer's `id` and `email`, else the `sub` and `email` claims; the role from `roleClaim`
   * @example A token with userId, roles[] and isAdmin
   * ```ts
   * const auth = createTokenAuth({
   *   uri: '/graphql',
   *   readUser: (claims) => ({
   *     id: claims['userId'] as string,
   *     role: [...((claims['roles'] as string[]) ?? []), ...(claims['isAdmin'] ? ['ADMIN'] : [])],
   *   }),
   * });
   * ```
   */
  readUser?: ReadUser;
  /**
   * Called once whenever a session ends: `logout()` (here or elsewhere), a rejected refresh token, a login that
   * replaced it (here, or as another user elsewhere). The state's `ended` keeps the same facts for the UI.
   */
  onSessionEnd?: (event: SessionEndEvent) => void;
  /** Called when each refresh settles: what started it and how it ended. For logs and metrics. */
  onRefresh?: (event: RefreshEvent) => void;
  /**
   * Called with failures nobody awaits: a proactive refresh that failed on the network, a store that threw,
   * a logout call that did not reach the server.
   */
  onError?: (error: unknown) => void;
  /**
   * Time source and timers.
   * @defaultValue `Date.now` and the global timers, read at call time (fake timers replace them)
   */
  clock?: Clock;
  /**
   * Refresh when the app comes back (visible, focused, online) if the proactive refresh fell due meanwhile,
   * and hold retries while offline: background tabs throttle timers and laptops sleep. In a page, pass
   * `browserResume()`; elsewhere a {@link ResumeSource} of the environment (React Native's `AppState`).
   *
   * @remarks
   * An import rather than a default, so that an app outside a browser carries no page listeners. Without one,
   * a token that died meanwhile is still renewed before an operation is sent, only later.
   * @defaultValue none (`false`)
   */
  refreshOnResume?: ResumeSource | false;
  /**
   * Decides whether an operation failed because its access token expired; the pair is then refreshed and the
   * operation replayed once.
   * @defaultValue `isTokenExpiredError`: a GraphQL error with `extensions.code === 'TOKEN_EXPIRED'`
   */
  isTokenExpiredError?: (error: unknown, operation: ApolloLink.Operation) => boolean;
  /**
   * Decides whether an operation that carried a token was refused because the session is no longer valid
   * (revoked): `true`, one refresh then tells (refused, the session ends now; renewed, the operation is replayed
   * once); `'maybe'`, the same, when the failure is worth a refresh (see `isUnauthenticatedError`); `false`,
   * the failure is passed on. Return only booleans to turn the checks of `'maybe'` off.
   * @defaultValue `isUnauthenticatedError`: `true` for `extensions.code === 'UNAUTHENTICATED'` or HTTP 401,
   * `'maybe'` for a GraphQL error without a code (or with `INTERNAL_SERVER_ERROR`)
   */
  isUnauthenticatedError?: (error: unknown, operation: ApolloLink.Operation) => boolean | 'maybe';
}

/** What {@link TokenAuthOptions.onSessionEnd} receives. */
export interface SessionEndEvent extends Pick<SessionEnd, 'elsewhere' | 'rejection' | 'message'> {
  /** `logout`, `rejected` or `replaced` (see {@link SessionEnd.reason}). */
  readonly reason: Exclude<SessionEndReason, 'no-session'>;
  /** The rejection, when the service rejected the refresh token. */
  readonly error?: unknown;
}

/** What {@link TokenAuthOptions.onRefresh} receives. */
export interface RefreshEvent {
  /** What started the refresh; later callers joined it. */
  readonly trigger: RefreshTrigger;
  /**
   * `rotated`: a new pair is in use. `adopted`: a session sharing the store had rotated already, and its pair is
   * in use, with no request. `rejected`: the session ended. `no-session`: a restore found nobody signed in (a
   * token handler's first visit, with no cookie): not an error. `failed`: no verdict, the session is kept and the
   * refresh retried. `superseded`: the session ended or was replaced while the request was out.
   */
  readonly outcome: 'rotated' | 'adopted' | 'rejected' | 'no-session' | 'failed' | 'superseded';
  /** The failure, for `rejected`, `no-session` and `failed`. */
  readonly error?: unknown;
}
