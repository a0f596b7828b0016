import { type ApolloCache, ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import type { ReactElement, ReactNode } from 'react';
import { type TokenAuth, type TokenAuthOptions, createTokenAuth } from '../index';
import { createTestAuthServer } from './createTestAuthServer';
import type { TestAuthServer, TestAuthServerOptions } from './TestAuthServer';
import { type TestClock, createTestClock } from './createTestClock';
import type { SeedUser, TestUser } from './users';

/** Options of {@link createTestSession}. */
export interface TestSessionOptions {
  /**
   * Who the session is for: the only account of its server.
   * @defaultValue `{ email: 'user@example.test', password: 'password', role: 'ADMIN' }`, each field on its own
   */
  user?: Partial<TestUser>;
  /** Whether the session starts signed in (else the test calls `auth.login`, or the app's form does). @defaultValue `true` */
  signedIn?: boolean;
  /** The clock of the session and its server. @defaultValue a new {@link createTestClock | test clock} */
  clock?: TestClock;
  /** Options of the server (lifetimes, `authErrorStatus` …). */
  server?: Omit<TestAuthServerOptions, 'clock' | 'users'>;
  /** Options of `createTokenAuth` beyond the endpoint, e.g. `onSessionEnd` or `refreshLeadTime`. */
  auth?: Omit<TokenAuthOptions, 'uri' | 'fetch' | 'clock' | 'transport'>;
  /** The Apollo cache, for an app's type policies. @defaultValue `new InMemoryCache()` */
  cache?: ApolloCache;
}

/** A real session against an in-process {@link TestAuthServer}, and what a component test needs of it. */
export interface TestSession {
  /** The session (`createTokenAuth`), on {@link TestSession.clock}, talking to {@link TestSession.server} in-process. */
  readonly auth: TokenAuth;
  /** An Apollo client whose link is `auth.link` in front of an `HttpLink` to the server. */
  readonly client: ApolloClient;
  /** The server: its `stats`, `faults` and controls. */
  readonly server: TestAuthServer;
  /** The clock of the session and the server: `await clock.advance(ms)` moves both. */
  readonly clock: TestClock;
  /** The account, with its password, for a login form. */
  readonly user: SeedUser;
  /**
   * `<StrictMode><ApolloProvider client><TokenAuthProvider auth>{children}`: pass it as the `wrapper` of
   * `render` (React Testing Library) so the component under test sees `useAuth()`.
   */
  readonly wrapper: (props: { children?: ReactNode }) => ReactElement;
  /**
   * The access token expires now on the server: the next operation is answered `TOKEN_EXPIRED`, the session
   * refreshes and replays it once. (To let time pass instead, `await clock.advance(ms)`: the session renews the
   * token before it expires.)
   */
  expire(): void;
  /**
   * The service ends the session (revoked, as after a reuse was detected): the server revokes it and the
   * session finds out at once, as at its next refresh. `status` becomes `unauthenticated`, `error` a
   * `SessionEndedError`, and `onSessionEnd` gets reason `rejected`.
   */
  endSession(): Promise<void>;
  /** Disposes of the session and the Apollo client, and closes the server. */
  dispose(): Promise<void>;
}

/**
 * A signed-in session for component tests, with no port and no network: the real session and Apollo link,
 * against a spec-true server in-process, on a test clock. The test controls login (`auth.login`), logout,
 * expiry (`expire()`, `clock.advance`) and the end of the session (`endSession()`).
 *
 * @remarks
 * No fake timers, and no `MockedProvider`: Apollo, React and `findBy…`/`waitFor` keep the real timers they
 * need, while the token timers run on the test clock (`await act(() => session.clock.advance(ms))`). Fake
 * timers would stop Apollo's and Testing Library's own waits; mocked responses cannot rotate a token.
 *
 * React, `@apollo/client/react` and `apollo-link-token-pair/react` are loaded here, when a session is created,
 * so the rest of `apollo-link-token-pair/testing` works in a project without React.
 *
 * @example
 * ```tsx
 * import { act, render } from '@testing-library/react';
 *
 * const session = await createTestSession({ user: { email: 'ada@example.test', role: 'Cashier' } });
 * render(<Dashboard />, { wrapper: session.wrapper });
 * await act(() => session.clock.advance(60 * 60_000)); // an hour: every token renewed before it expired
 * ```
 */
export async function createTestSession(options: TestSessionOptions = {}): Promise<TestSession> {
  const clock = options.clock ?? createTestClock();
  const server = createTestAuthServer({
    ...options.server,
    clock,
    users: [{ email: 'user@example.test', password: 'password', role: 'ADMIN', ...options.user }],
  });
  const user = server.users[0]!;
  const uri = '/graphql';
  const auth = createTokenAuth({ refreshOnResume: false, ...options.auth, uri, fetch: server.fetch, clock });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri, fetch: server.fetch })]),
    cache: options.cache ?? new InMemoryCache(),
  });
  const [{ createElement, StrictMode }, { ApolloProvider }, { TokenAuthProvider }] = await Promise.all([
    import('react'),
    import('@apollo/client/react'),
    import('../react/index'),
  ]);
  if (options.signedIn ?? true) await auth.login(user.email, user.password);

  return {
    auth,
    client,
    server,
    clock,
    user,
    wrapper: ({ children }) =>
      createElement(
        StrictMode,
        null,
        createElement(ApolloProvider, { client, children: createElement(TokenAuthProvider, { auth, children }) }),
      ),
    expire: () => server.expireAllAccessTokens(),
    async endSession() {
      server.revokeAllSessions();
      await auth.refresh().catch(() => {});
    },
    async dispose() {
      auth.dispose();
      client.stop();
      await server.close();
    },
  };
}
