import { createClient, type Client, type ClientOptions, type Sink, type SubscribePayload } from 'graphql-ws';
import { getRetryDelay, SessionEndedError, systemClock, type Clock, type TokenAuth } from '../index';
import { toRetryDelay } from '../internal';
import {
  createResumableSubscription,
  type ResumableSubscription,
  type ResumableSubscriptionHost,
  type Result,
} from './createResumableSubscription';
import { guardSend, OPEN, type WebSocketClass } from './guardSend';
import { isRefusal } from './isRefusal';
import { iterate } from './iterate';

/** Options of {@link createTokenAuthWsClient}: graphql-ws's own, and how the socket follows the session. */
export interface TokenAuthWsClientOptions extends ClientOptions {
  /**
   * Re-authenticates the socket after every refresh, before the old token expires: it is closed normally (1000),
   * on which graphql-ws reconnects at once with the new token and resubscribes, with no error for the app.
   * `false` keeps the socket as it is, for servers that check the token only at connect and never close on expiry.
   * @defaultValue `true`
   */
  restartOnRefresh?: boolean;
  /**
   * How many times in a row a subscription is resumed after the server refused its token (close 4401 or 4403,
   * `TOKEN_EXPIRED`) with no event in between; then it errors with the last failure.
   * @defaultValue `5`
   */
  authRetryAttempts?: number;
  /**
   * The wait before resume number `attempt` (from 2: the first runs at once, right after the refresh).
   * @defaultValue full jitter: a random time up to 1 s, 2 s, 4 s … capped at 30 s
   */
  authRetryDelay?: number | ((attempt: number) => number);
  /**
   * The timers of that wait.
   * @defaultValue the global timers, read at call time
   */
  clock?: Clock;
}

/** The latest connection: the token its `connection_init` carried, and its socket once acknowledged. */
interface Connection {
  /** `null` signed out; `undefined` when no token could be had. */
  readonly token: string | null | undefined;
  socket?: Socket;
}

interface Socket {
  readonly readyState: number;
  close(code: number, reason: string): void;
}

/**
 * A graphql-ws client whose subscriptions follow the session: hand it to `new GraphQLWsLink(client)`.
 *
 * @remarks
 * - Each connection carries `authorization: "Bearer <token>"` in its `connection_init` payload (merged into your
 *   `connectionParams`), waiting for a refresh in flight; none at all when signed out.
 * - `logout()` and a session the server ended end every running subscription at once with a `SessionEndedError`
 *   and close the socket: no event of the previous user reaches the app afterwards.
 * - A login as someone else closes the socket too, and subscribes every running subscription again as the new
 *   user on the next one: its sink gets the new user's events, never one more of the previous user's.
 * - After a refresh the socket reconnects with the new token (see `restartOnRefresh`); subscriptions carry on.
 * - A server that cannot be reached, or refuses the connection (a 503 while it restarts), is tried again for as
 *   long as it takes, a random wait of up to 1 s, 2 s, 4 s, then 8 s apart, and the subscriptions resume then:
 *   the defaults of graphql-ws's `retryAttempts` (5), `shouldRetry` (close events only) and `retryWait` (doubling
 *   without a cap) would end them for good after the first refused connection. The wait ends at once when the
 *   session renews its pair (its server answered). Pass your own to change that (a `retryWait` of yours replaces
 *   the wait and its wake-up).
 * - A close with 4401 or 4403, or a subscription error with `TOKEN_EXPIRED` (or what the `isTokenExpiredError`
 *   given to `createTokenAuth` takes as expired: it receives a `CombinedGraphQLErrors`, and in place of the
 *   operation an object with the subscription's `operationName` and `variables`), before or after events, refreshes
 *   the pair (the same single flight as your HTTP operations; none when the token was renewed already), then
 *   resumes the subscription on a socket with the new token. A rejected refresh ends the session and the
 *   subscriptions; a failed one is retried with backoff, `authRetryAttempts` times. The token a refresh just
 *   brought, refused too, is no expiry: the subscription ends with a `TokenRefusedError`, and no further refresh
 *   is spent. Unless that token was past its own `exp` when it came (a refresh another tab made, read late in a
 *   page the browser had frozen): then it is renewed once more.
 *
 * @example
 * ```ts
 * import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
 * import { createTokenAuthWsClient } from 'apollo-link-token-pair/ws';
 *
 * const wsLink = new GraphQLWsLink(createTokenAuthWsClient(auth, { url: 'wss://api.example.com/graphql' }));
 * ```
 */
export function createTokenAuthWsClient(auth: TokenAuth, options: TokenAuthWsClientOptions): Client {
  const { restartOnRefresh = true, authRetryAttempts = 5, clock = systemClock, shouldRetry = () => true } = options;
  const running = new Set<ResumableSubscription>();
  // Whose subscriptions run: `null` signed out, `undefined` while the session loads. Those started signed out or
  // loading carry on as the user who logs in or loads; a user's end with that user.
  let userId: string | null | undefined;
  let connection: Connection | undefined;
  let opening: Socket | undefined;
  // Ends graphql-ws's wait before its next attempt.
  let wake = noop;
  const webSocketImpl = (options.webSocketImpl ?? globalThis.WebSocket) as WebSocketClass | undefined;

  const client = createClient({
    // A server that is down or restarting refuses the connection (an error event, not a close, which graphql-ws
    // alone gives up on) as long as it likes: the subscriptions wait for it, 8 s apart at most, so that the screen
    // is live again soon after the server is; sooner still when the session hears of it first.
    retryAttempts: Infinity,
    retryWait: (retries) =>
      new Promise((resolve) => {
        const timer = clock.setTimeout(resolve, getRetryDelay(Math.min(retries + 1, 4)));
        wake = () => (clock.clearTimeout(timer), resolve());
      }),
    ...options,
    // Sends nothing to a socket no longer open (guardSend): a pong to a socket closed to authenticate again.
    ...(webSocketImpl && { webSocketImpl: guardSend(webSocketImpl) }),
    async connectionParams() {
      const socket = opening;
      const { connectionParams: own } = options;
      const params = typeof own === 'function' ? await own() : own;
      // Never throws: graphql-ws would close with 4005, which it does not retry.
      const token = await auth
        .getAccessToken()
        .catch((error: unknown) => (SessionEndedError.is(error) ? null : undefined));
      connection = { token };
      // No token to be had (a refresh that failed without a verdict): a refusal, resumed like the server's.
      if (token === undefined) socket?.close(4401, 'No access token');
      return token ? { ...params, authorization: `Bearer ${token}` } : params;
    },
    // A refused token is refreshed and the subscription resumed (createResumableSubscription), never retried as it was.
    shouldRetry: (event) => !isRefusal(event) && shouldRetry(event),
  });
  const host: ResumableSubscriptionHost = {
    client,
    auth,
    running,
    authRetryAttempts,
    authRetryDelay: toRetryDelay(options.authRetryDelay),
    clock,
    connectionToken: () => connection?.token,
    replaceConnection(token) {
      if (connection?.socket && connection.token === token) restart(connection.socket);
    },
  };
  client.on('opened', (socket) => (opening = socket as Socket));
  client.on('connected', (socket) => {
    if (connection) connection.socket = socket as Socket;
    reauthenticate();
  });
  follow();
  const stop = auth.subscribe(follow);

  function follow(): void {
    const { status, user, error, retry } = auth.getState();
    // A change with no refresh waiting to be retried: the session's server answered, the socket's may too.
    if (!retry) wake();
    if (status === 'loading') return;
    const next = user?.id ?? null;
    if (userId && userId !== next) {
      // The socket, acknowledged or not, carries the previous user's token: no subscription may use it.
      connection = undefined;
      if (opening) restart(opening);
      // Synchronous with the state change (`logout()` publishes it before it awaits anything), so no event of the
      // previous user's streams gets through after it. Signed out, they end. Another user's login has them
      // subscribe again, on the socket that reconnects with that user's token: the screen that shows them is
      // still mounted, and would otherwise stay ended until remounted.
      const ended = SessionEndedError.is(error) ? error : new SessionEndedError('logout');
      for (const subscription of running) {
        if (next) subscription.again();
        else subscription.end({ error: ended });
      }
    }
    userId = next;
    reauthenticate();
  }

  // Reconnects a socket whose token is no longer the session's: renewed (unless the server checks only at
  // connect), or one opened signed out or without a token, now that there is one.
  function reauthenticate(): void {
    const current = connection;
    const socket = current?.socket;
    if (!socket) return;
    auth.getAccessToken().then((token) => {
      if (connection === current && token !== current.token && (restartOnRefresh || !current.token)) restart(socket);
    }, noop);
  }

  function subscribe(payload: SubscribePayload, sink: Sink<Result>): () => void {
    const subscription = createResumableSubscription(host, payload, sink);
    return () => subscription.end();
  }

  return {
    ...client,
    subscribe: subscribe as Client['subscribe'],
    // graphql-ws's `iterate` would bypass the wrapped `subscribe`: the same, over it.
    iterate: (payload) => iterate(subscribe, payload) as never,
    dispose() {
      stop();
      for (const subscription of running) subscription.end();
      return client.dispose();
    },
  };
}

function noop(): void {}

function restart(socket: Socket): void {
  if (socket.readyState === OPEN) socket.close(1000, 'Reauthenticate');
}
