import type { Clock, TokenPair } from '../index';
import type { SubscriptionServer } from './attachSubscriptions';
import type { IdTokenOptions } from './createIdTokenIssuer';
import type { SignInCode } from './createOneTimeCodes';
import type { TestAuthServerFaults } from './faults';
import type { TestAuthServerStats } from './stats';
import type { SeedUser, TestUser } from './users';

/** Options of {@link createTestAuthServer}. */
export interface TestAuthServerOptions {
  /** Access token lifetime in seconds. @defaultValue `900` (the spec's 15 minutes) */
  accessTokenTtl?: number;
  /** Refresh token lifetime in seconds. @defaultValue `2_592_000` (the spec's 30 days) */
  refreshTokenTtl?: number;
  /**
   * Beyond the contract: `false` for a server that does not rotate (RFC 6749 §6 allows it): `refreshToken` answers
   * a new access token with the same refresh token, which stays good (and is never taken for reuse) until it expires
   * or the session is logged out. A client whose refresh document selects no `refreshToken` sees a server that
   * answers none.
   * @defaultValue `true`: single use, as the contract says
   */
  rotateRefreshTokens?: boolean;
  /**
   * The accounts that can log in. @defaultValue {@link TEST_USERS}: owner, admin, cashier and twofactor `@demo.test`
   */
  users?: readonly TestUser[];
  /** HS256 secret. @defaultValue a random 32-byte secret per server */
  secret?: string | Uint8Array;
  /**
   * The server's clock: `iat`/`exp` of the tokens it signs, their verification, and the moment a WebSocket's
   * token expires. Give it the {@link TestClock} the session runs on and tokens expire for both at once; a test
   * clock also waits, in `advance()`, for the requests this server is serving.
   * @defaultValue the system clock
   */
  clock?: Clock;
  /**
   * HTTP status of responses whose only errors are auth errors (TOKEN_EXPIRED, UNAUTHENTICATED, INVALID_*,
   * SECOND_FACTOR_REQUIRED); a batch gets it when every result carries only auth errors.
   * @defaultValue `200`, as GraphQL over HTTP with `application/json`
   */
  authErrorStatus?: number;
  /** ms between two events of the `ticker` subscription (graphql-ws, once listening). @defaultValue `500` */
  tickerInterval?: number;
  /**
   * The `access-control-allow-origin` of every answer: `'*'`, or the one origin a browser app is served from
   * (`'http://localhost:5173'`). Tokens travel in the `authorization` header, never in cookies, so `'*'` suffices.
   * @defaultValue `'*'`
   */
  corsOrigin?: string;
  /**
   * Hears each one-time code of the sign-in doors as it is "sent by e-mail" (`serve` prints it). The codes are also
   * in {@link TestAuthServer.codes} and `GET …/control/codes`.
   * @defaultValue none
   */
  onCode?: (code: SignInCode) => void;
}

/**
 * A spec-true auth server for tests: in-process through {@link TestAuthServer.fetch}, or over HTTP and
 * WebSocket once {@link TestAuthServer.listen | listening}.
 */
export interface TestAuthServer {
  /**
   * The server as a Fetch-API handler, with `fetch`'s signature: hand it to MSW, stub the global `fetch` with
   * it, or pass it as the `fetch` of `createTokenAuth` and `HttpLink`. No port is opened. It serves
   * `…/graphql` (POST, one operation or a batch) and `…/control/*`, whatever the origin; a relative URL is
   * taken as on any origin.
   * @example
   * ```ts
   * const server = createTestAuthServer();
   * const auth = createTokenAuth({ uri: '/graphql', fetch: server.fetch });
   * ```
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * Node only: serves the same over HTTP, and graphql-ws at the same `/graphql` when the optional peers `ws`
   * and `graphql-ws` are installed. Resolves the GraphQL URL, e.g. `http://127.0.0.1:PORT/graphql`.
   * @param port - `0` (default) picks a free one.
   * @param host - default `127.0.0.1`.
   */
  listen(port?: number, host?: string): Promise<string>;
  /** The GraphQL URL once listening, '' before. */
  readonly url: string;
  /**
   * The graphql-ws URL once listening (`ws://127.0.0.1:PORT/graphql`); '' before, and when the optional peers `ws`
   * and `graphql-ws` are not installed.
   */
  readonly wsUrl: string;
  /**
   * Ends every delayed or hung request (in-process: `fetch` rejects), stops listening and destroys every
   * open socket. The server answers nothing after it.
   */
  close(): Promise<void>;
  /** Counters and histories; `resetStats()` zeroes them in place. */
  readonly stats: TestAuthServerStats;
  /** Fault switches; mutate them. */
  readonly faults: TestAuthServerFaults;
  /** Zeroes every counter and empties the histories, in place. */
  resetStats(): void;
  /**
   * Every access token issued so far is answered with TOKEN_EXPIRED from now on; later ones are fine. Sockets
   * authenticated with one are treated as `ws.onExpiry` says.
   */
  expireAllAccessTokens(): void;
  /** Revokes every session: all its access and refresh tokens are refused, and its sockets closed with 4403. */
  revokeAllSessions(): void;
  /** The graphql-ws endpoint at the same `/graphql` (once listening): its controls and counters. */
  readonly ws: SubscriptionServer;
  /** Opens a session for a user as login would (without counting a login), to pre-fill a client's store. */
  issueTokens(email: string, opts?: { accessTokenTtl?: number; refreshTokenTtl?: number }): Promise<TokenPair>;
  /** The accounts that can log in: the seeded ones, then those who signed up (`register`, a first ID token). */
  readonly users: readonly SeedUser[];
  /**
   * The one-time codes the sign-in doors "sent by e-mail", oldest first (the last 100), those sent to `email` only
   * when given: `requestSignInCode`'s (`kind: 'sign-in'`) and `signIn`'s for an account with a second factor
   * (`kind: 'second-factor'`, with its `challenge`). Spent and expired ones stay listed. Beyond the contract.
   * @example
   * ```ts
   * const server = createTestAuthServer();
   * // … the app calls requestSignInCode(email: "admin@demo.test") …
   * const code = server.codes('admin@demo.test').at(-1)?.code; // '042917'
   * ```
   */
  codes(email?: string): readonly SignInCode[];
  /**
   * Signs an ID token as the server's test identity provider would (HS256 with a key of its own, on the server's
   * clock; `iss` `https://id.test-auth-server.invalid`, `aud` `apollo-link-token-pair-test`), for
   * `signInWithIdToken`. Beyond the contract. `POST …/control/id-token` does the same for a browser.
   * @example
   * ```ts
   * const server = createTestAuthServer();
   * const idToken = await server.signIdToken({ email: 'ada@example.test', name: 'Ada' });
   * // mutation { signInWithIdToken(idToken: $idToken) { accessToken refreshToken user { id role } } }: role MEMBER
   * ```
   */
  signIdToken(options: IdTokenOptions): Promise<string>;
}
