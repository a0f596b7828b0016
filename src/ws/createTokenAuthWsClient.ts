import {
  createClient,
  type Client,
  type ClientOptions,
  type FormattedExecutionResult,
  type Sink,
  type SubscribePayload,
} from 'graphql-ws';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { getRetryDelay, SessionEndedError, systemClock, TokenRefusedError, type Clock, type TokenAuth } from '../index';
import { getTokenAuthInternals } from '../internal';
import { guardSend, type WebSocketClass } from './guardSend';
import { graphQLErrorCode, type GraphQLErrorLike } from '../shared/graphQLErrorCode';

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

type Result = FormattedExecutionResult<Record<string, unknown>, unknown>;
type Outcome = { error: unknown } | undefined;

const OPEN = 1;
const REFUSED = [4401, 4403];
// A token renewed for a subscription is fresh this long (or half its life, if shorter): refused meanwhile, it was
// not an expiry.
const FRESH = 5_000;

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
  const {
    restartOnRefresh = true,
    authRetryAttempts = 5,
    authRetryDelay = getRetryDelay,
    clock = systemClock,
    shouldRetry = () => true,
  } = options;
  // Each running subscription's end; with `again`, it leaves its stream and subscribes again instead.
  const running = new Set<(outcome: Outcome, again?: boolean) => void>();
  // Whose subscriptions run: `null` signed out, `undefined` while the session loads. Those started signed out or
  // loading carry on as the user who logs in or loads; a user's end with that user.
  let userId: string | null | undefined;
  let connection: Connection | undefined;
  let opening: Socket | undefined;
  // Ends graphql-ws's wait before its next attempt.
  let wake = noop;
  const isExpired = getTokenAuthInternals(auth)?.isTokenExpiredError;
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
    // A refused token is refreshed and the subscription resumed here, never retried as it was.
    shouldRetry: (event) => !isRefusal(event) && shouldRetry(event),
  });
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
      // previous user's streams gets through after it. Signed out, they end. Another user's login leaves them and
      // subscribes again, on the socket that reconnects with that user's token: the screen that shows them is
      // still mounted, and would otherwise stay ended until remounted.
      const ended = SessionEndedError.is(error) ? error : new SessionEndedError('logout');
      for (const end of running) end({ error: ended }, !!next);
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
    const { operationName, variables } = payload;
    const expired = (errors: unknown) =>
      isExpired
        ? Array.isArray(errors) &&
          isExpired(new CombinedGraphQLErrors({ errors }, errors), { operationName, variables } as never)
        : hasExpiredToken(errors);
    let attempts = 0;
    let leave = noop;
    let timer: unknown;
    // The token the last resume renewed, and until when a refusal of it means the server refuses fresh tokens.
    let renewed: { token: string | null; until: number } | undefined;

    // With `again` (another user signed in), it leaves the stream and subscribes again instead of ending.
    const end = (outcome: Outcome, again?: boolean) => {
      clock.clearTimeout(timer);
      leave();
      if (again) return ((attempts = 0), start());
      if (!running.delete(end)) return;
      if (outcome) sink.error(outcome.error);
      else sink.complete();
    };

    const start = () => {
      let left = false;
      const dispose = client.subscribe(payload, {
        next(result) {
          if (left) return;
          if (!expired(result.errors)) {
            attempts = 0;
            renewed = undefined;
            return sink.next(result);
          }
          void resume(result.errors);
        },
        error(error) {
          if (left) return;
          if (isRefusal(error) || expired(error)) void resume(error);
          else end({ error });
        },
        complete() {
          if (!left) end(undefined);
        },
      });
      leave = () => {
        left = true;
        // Not at once: a `complete` for this id may be on its way in the same read (it follows a result with
        // TOKEN_EXPIRED), and graphql-ws counts a release twice when its own comes after ours, dropping the
        // socket from under the other subscriptions.
        queueMicrotask(dispose);
      };
    };

    async function resume(refusal: unknown): Promise<void> {
      // Over, or about to be: a `complete` follows a result with TOKEN_EXPIRED.
      leave();
      // Another user's login meanwhile subscribes again itself: this resume is over then.
      const stream = leave;
      const over = () => !running.has(end) || leave !== stream;
      const refused = connection?.token;
      if (renewed && renewed.token === refused && clock.now() < renewed.until)
        return end({ error: new TokenRefusedError(refusal) });
      for (;;) {
        if (++attempts > authRetryAttempts) return end({ error: refusal });
        if (attempts > 1) {
          const delay = typeof authRetryDelay === 'number' ? authRetryDelay : authRetryDelay(attempts - 1);
          await new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, delay)));
        }
        if (over()) return;
        try {
          // One refresh per refused token: none when the session renewed it already.
          const token = await auth.getAccessToken().catch(() => refused);
          if (token === refused) {
            await auth.refresh('socket');
            const now = clock.now();
            const { expiresAt = Infinity, user } = auth.getState();
            // A token already past its own `exp` (an answer read late, in a page that was frozen, then shared with
            // this one) may well be refused as expired: that is no sign of a server that refuses its own tokens.
            const dead = Number(user?.claims['exp']) * 1000 <= now;
            renewed = {
              token: await auth.getAccessToken(),
              until: dead ? now : now + Math.min(FRESH, (expiresAt - now) / 2),
            };
          }
          break;
        } catch (error) {
          if (over()) return;
          if (SessionEndedError.is(error)) return end({ error });
          refusal = error;
        }
      }
      if (over()) return;
      // The socket that refused the token would refuse the replay too (TOKEN_EXPIRED leaves it open).
      const now = connection;
      if (now?.socket && now.token === refused) restart(now.socket);
      start();
    }

    running.add(end);
    start();
    return () => end(undefined);
  }

  return {
    ...client,
    subscribe: subscribe as Client['subscribe'],
    iterate: (payload) => iterate(subscribe, payload) as never,
    dispose() {
      stop();
      for (const end of running) end(undefined);
      return client.dispose();
    },
  };
}

function noop(): void {}

function restart(socket: Socket): void {
  if (socket.readyState === OPEN) socket.close(1000, 'Reauthenticate');
}

function isCloseEvent(event: unknown): event is { code: number; reason: string } {
  return typeof event === 'object' && event !== null && 'code' in event && 'reason' in event;
}

function isRefusal(event: unknown): boolean {
  return isCloseEvent(event) && REFUSED.includes(event.code);
}

function hasExpiredToken(errors: unknown): boolean {
  return Array.isArray(errors) && errors.some((error: GraphQLErrorLike) => graphQLErrorCode(error) === 'TOKEN_EXPIRED');
}

// graphql-ws's `iterate` would bypass the wrapped `subscribe`: the same, over it.
async function* iterate(
  subscribe: (payload: SubscribePayload, sink: Sink<Result>) => () => void,
  payload: SubscribePayload,
): AsyncGenerator<Result> {
  const results: Result[] = [];
  let outcome: Outcome | null = null;
  let wake = noop;
  const dispose = subscribe(payload, {
    next: (result) => (results.push(result), wake()),
    error(error) {
      // What the previous user's stream left unread is not for whoever reads on.
      if (SessionEndedError.is(error)) results.length = 0;
      outcome = { error };
      wake();
    },
    complete: () => ((outcome = undefined), wake()),
  });
  try {
    for (;;) {
      while (results.length) yield results.shift()!;
      if (outcome !== null) {
        if (outcome) throw (outcome as { error: unknown }).error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    dispose();
  }
}
