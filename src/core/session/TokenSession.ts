import { jwtDecode } from 'jwt-decode';
import { AuthRejectedError } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { bounded } from '../environment/bounded';
import { systemClock } from '../environment/Clock';
import { createGraphQLTransport, type GraphQLTransportOptions } from '../transports/createGraphQLTransport';
import { createMemoryTokenStore } from '../stores/createMemoryTokenStore';
import { getRetryDelay } from './getRetryDelay';
import { getRefreshFloor, NO_REFRESH, spendFloor, type FloorState } from './getRefreshFloor';
import { createSessionChecks } from './createSessionChecks';
import { getTokenSchedule, type TokenSchedule } from '../tokens/getTokenSchedule';
import { openStore, type Rotation } from '../stores/openStore';
import { decodeAccessToken, readTokenPair, type TokenClaims } from '../tokens/readTokenPair';
import { createRefreshTimer } from './RefreshTimer';
import { SessionEndedError, type SessionEndReason } from '../errors/SessionEndedError';
import type { TokenAuthOptions, RefreshEvent, RefreshTrigger } from './TokenAuthOptions';
import type { SessionEnd, TokenAuthState, TokenUser } from './TokenAuthState';
import type { TokenPair } from '../stores/TokenStore';

/**
 * One login and the pairs its refreshes bring: an operation replays only within the epoch it was sent in, and
 * an epoch, once ended, stays ended.
 */
export interface Epoch {
  /** Why it ended. */
  ended?: SessionEndedError;
}

/**
 * The live session: one pair and what hangs on it. A new pair means a new record, so a refresh cannot outlive
 * the pair it renews, and the backoff starts afresh with every rotation.
 */
export interface Live {
  readonly epoch: Epoch;
  readonly pair: TokenPair;
  readonly user: TokenUser;
  readonly schedule: TokenSchedule | null;
  /** The refresh of this pair in flight. */
  refreshing?: Promise<void>;
  /** The pair the service answered that refresh with: the newest, for a logout to revoke. */
  next?: TokenPair;
  /** A logout, or a login that replaced this record, revokes its newest pair itself. */
  revoking?: boolean;
  /** A refresh request of this pair has gone out: its refresh token is spent, whatever the answer. */
  sent?: boolean;
  /** Set while a retry of a refresh that got no verdict waits. */
  retry?: NonNullable<TokenAuthState['retry']>;
  /** Set while a refresh that was asked for waits for the floor. */
  waiting?: NonNullable<TokenAuthState['waiting']>;
  /** How many refreshes of this pair in a row were answered with an uncertain refusal. */
  refusals?: number;
  /** The failure whose check renewed the pair into this record: said again to this pair, it is not a dead session. */
  checked?: string;
  /** On an operation's view of the record: when the operation began to wait for a pair, which its replay counts from. */
  readonly since?: number;
}

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
   * Logs in and starts a new session, replacing any other (whose pair is revoked on the service).
   *
   * @throws `AuthRejectedError` (code `INVALID_CREDENTIALS` or what the server sends) for bad credentials;
   * `AuthRequestError` when the service could not be reached or answered something malformed. Nothing is
   * stored then, and the failure shows as `error` in the state.
   */
  login(email: string, password: string): Promise<{ user: TokenUser }>;
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
   * @throws `SessionEndedError` when there is no session or the service rejected the refresh token (the
   * session is then over); `AuthRequestError` for a transient failure (the session is kept).
   */
  refresh(trigger?: 'manual' | 'socket'): Promise<void>;
  /**
   * The access token to send now: waits while the stored pair loads, and renews a token that is already dead
   * by the local clock before it is sent. `null` when nobody is logged in.
   */
  getAccessToken(): Promise<string | null>;
  /**
   * The session an operation goes out with, synchronously when no wait is needed, which is almost always. A
   * token that is still valid is used even while a refresh is out: only a dead one waits.
   * @internal Used by the links.
   */
  current(): Live | null | Promise<Live | null>;
  /**
   * The session to replay with after an operation sent with `sent` was answered `TOKEN_EXPIRED` (or
   * unauthenticated): the pair that replaced it already, or the one the single refresh brings. Never one of
   * another epoch: an operation does not run as another user.
   * @internal Used by the links.
   */
  recover(sent: Live | undefined): Promise<Live>;
  /**
   * Whether an operation sent with `sent` and refused with `failure` (an error that may mean the session is dead,
   * but says nothing for sure) should be replayed: the session checks itself with a refresh when the failure is
   * worth one. Resolves `true` once renewed (replay), `false` when not worth a check or the check got no verdict
   * (pass the failure on); rejects with `SessionEndedError` when the refresh was refused: the session was dead.
   * @internal Used by the links.
   */
  check(sent: Live | undefined, failure: string): Promise<boolean>;
  /**
   * Stops the timer and every listener, and aborts an auth call in flight, so that a process can exit. A refresh
   * already sent is the exception on a store that outlives the process: the server has spent its refresh token,
   * so it finishes (within `refreshTimeout`) and stores its pair before the store is let go. On the memory store
   * it is aborted too, and the spent pair cleared: nothing reads it after this session. Waiting operations fail at
   * once. The stored pair stays.
   */
  dispose(): void;
}

const LOADING: TokenAuthState = { status: 'loading', user: null };
const SIGNED_OUT: TokenAuthState = { status: 'unauthenticated', user: null };
// Refreshes nobody awaits (`proactive`, `retry`, `resume`, `restore`): their failures go to onError.
const BACKGROUND = /^(p|re[st])/;
// A refresh answered with an uncertain refusal this many times in a row ends the session: with the default
// floor and backoff, about 10 s after the first.
const REFUSALS = 3;
// An operation that needs a new pair while a retry is scheduled waits for it when it is due within this long.
const RETRY_JOIN = 10_000;
// An operation waits this long at most for a pair, its replay after TOKEN_EXPIRED included: a second past the
// default lock wait, whose failure says more when both run out together.
const OPERATION_WAIT = 21_000;

/** Creates the {@link TokenSession} behind `createTokenAuth`. */
export function createTokenSession(options: TokenAuthOptions): TokenSession {
  const clock = options.clock ?? systemClock;
  // The GraphQL transport reads its options (`uri`, `fetch`, `headers`, `isRefusal`) from these.
  const transport = options.transport ?? createGraphQLTransport(options as GraphQLTransportOptions);
  const floor = options.refreshFloor ?? 5_000;
  const checks = createSessionChecks();
  const timer = createRefreshTimer(clock, () => background(live?.retry ? 'retry' : 'proactive'));
  const listeners = new Set<() => void>();
  const abort = new AbortController();
  const { signal } = abort;
  const seam = openStore(transport.store ?? options.store ?? createMemoryTokenStore(), {
    clock,
    timeout: options.storeTimeout ?? 10_000,
    report,
    adopt: follow,
  });
  const resume = options.refreshOnResume || undefined;
  const stops = [resume?.subscribe(resumed), seam.close];

  let state = LOADING;
  let live: Live | null = null;
  // How the last signed-in session ended: part of every state until the next login.
  let ended: SessionEnd | undefined;
  // The epoch a login, restore or followed pair now starts or extends; replaced whenever one ends.
  let epoch: Epoch = {};
  // Resolves the stored pair while the store is read at start.
  let restoring: Promise<TokenPair | null> | null = null;
  let loggingOut: Promise<void> | null = null;
  // When this session last sent a refresh, and the credit the floor has left; a login starts afresh.
  let sentAt: FloorState = NO_REFRESH;
  // Waits (the floor, a scheduled retry) that the session's end or dispose() cuts short.
  const sleepers = new Set<() => void>();
  // Waits on a refresh, which dispose() ends at once. Not a race with a promise of the dispose: each wait would
  // leave a reaction on it until then, and a session waits on every refresh of a page's life.
  const joins = new Set<(value?: unknown) => void>();

  const started = epoch;
  const stored = seam.load();
  if (stored instanceof Promise) {
    restoring = stored.then((pair) => (restore(pair, started), pair)).finally(() => (restoring = null));
  } else restore(stored, started);
  const initial = state;

  const current = (): Live | null | Promise<Live | null> => {
    if (live) return isDead(live) ? renew(live, 'expired-locally') : live;
    if (!restoring) return null;
    const waited = epoch;
    return restoring.then(() => {
      if (waited.ended) throw waited.ended;
      return current();
    });
  };

  return {
    getState: () => state,
    getInitialState: () => initial,
    subscribe(listener) {
      if (signal.aborted) return () => {};
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async login(email, password) {
      // A service that keeps the session (a token handler) is told which session a logout ends by its cookie, not
      // by a pair: a logout still waiting for its refresh to settle would go out after this login and end the new
      // session.
      if (transport.ownsSession) await loggingOut?.catch(() => {});
      let next: Live;
      try {
        const answer = await call('loginWithEmailPassword', (signal) => transport.login(email, password, signal));
        next = record(
          readTokenPair(answer, 'loginWithEmailPassword', clock.now()),
          {},
          answer.user as Partial<TokenUser> | undefined,
        );
        // The same user signing in again continues the epoch: operations waiting on a refresh replay with this pair.
        if (live?.user.id && live.user.id === next.user.id) next = { ...next, epoch: live.epoch };
      } catch (error) {
        publish({ ...state, error: error as Error });
        throw error;
      }
      const replaced = live;
      sentAt = NO_REFRESH;
      switchTo(next, true);
      // A service that keeps the session (a token handler) ended the replaced one itself.
      if (!transport.ownsSession) void revokeNewest(replaced);
      // Written only while the session still holds this pair: a logout, or a newer pair followed meanwhile, wins.
      await seam.save(next.pair, () => live?.pair === next.pair);
      return { user: next.user };
    },
    logout() {
      // A second call joins the first, unless a session started since: that one is ended too.
      if (loggingOut && !live && !restoring) return loggingOut;
      const logout = endAndRevoke().finally(() => {
        if (loggingOut === logout) loggingOut = null;
      });
      return (loggingOut = logout);
    },
    async refresh(trigger = 'manual') {
      await restoring;
      if (!live) throw noSession();
      // The app asked: a wait for the floor or a scheduled retry ends now.
      wake();
      await renew(live, trigger, true);
    },
    getAccessToken: async () => (await current())?.pair.accessToken ?? null,
    current,
    async recover(sent) {
      await restoring;
      if (sent && sent.epoch !== live?.epoch) throw sent.epoch.ended ?? noSession();
      if (!live) throw noSession();
      return live.pair.accessToken === sent?.pair.accessToken ? renew(live, 'token-expired', false, sent.since) : live;
    },
    async check(sent, failure) {
      await restoring;
      if (sent && sent.epoch !== live?.epoch) throw sent.epoch.ended ?? noSession();
      if (!live || !sent) return false;
      // Renewed since it was sent: replayed with the current pair, as after TOKEN_EXPIRED.
      if (live.pair.accessToken !== sent.pair.accessToken) return true;
      const key = checks.worth(failure, sent, clock.now());
      if (!key) return false;
      try {
        (await renew(live, 'check')).checked = key;
        return true;
      } catch (error) {
        if (SessionEndedError.is(error)) throw error;
        // No verdict (the service could not be reached): the operation's own failure is what the app sees.
        return false;
      }
    },
    dispose() {
      // A refresh already sent has spent its refresh token on the server: it is let finish (bounded by
      // refreshTimeout) and store its pair before the store is let go, or a persistent store would keep the spent
      // token for the next start to present as reuse. The memory store is read by no later start: the refresh is
      // aborted with the rest, and the spent pair goes.
      let sent = live?.sent && live.refreshing;
      if (sent && seam.volatile) {
        sent = undefined;
        void seam.save(null);
      }
      abort.abort(new AuthRequestError('The session was disposed.', 'dispose'));
      wake(joins);
      wake();
      timer.cancel();
      listeners.clear();
      const stop = () => {
        for (const each of stops.splice(0)) each?.();
      };
      if (sent) void sent.finally(stop);
      else stop();
    },
  };

  async function endAndRevoke(): Promise<void> {
    const reading = restoring;
    const ending = live;
    // A second logout() joins this one from now on, even while the stored pair is still being read.
    restoring = null;
    end('logout');
    // Claimed before anything is awaited, so that a refresh settling meanwhile leaves its pair to this logout.
    const revoked = revokeNewest(ending, reading);
    await seam.save(null);
    await revoked;
  }

  // Revokes the newest pair of a session that was logged out or replaced: once its refresh in flight (if any)
  // has settled, the pair that refresh brought, else the one it had; with no live session, the stored pair a
  // restore is still reading. Nothing else revokes that epoch's pairs.
  function revokeNewest(old: Live | null, reading = restoring): Promise<unknown> | undefined {
    // A login's own pair, written before the read answered, is not the old session's.
    if (!old)
      return reading?.then((pair) =>
        pair && pair.refreshToken !== live?.pair.refreshToken ? revoke(pair) : undefined,
      );
    old.revoking = true;
    return Promise.resolve(old.refreshing).then(() => revoke(old.next ?? old.pair));
  }

  // Joins the refresh of `from` (or starts it) and resolves its successor in the same epoch. An operation
  // (`token-expired`, `expired-locally`) waits for one retry while its whole wait stays within RETRY_JOIN,
  // whether it found the retry scheduled or its refresh failed: one quick transient failure costs it latency, not
  // an error. Past that (a lock held by a frozen tab, a refresh that timed out), it fails with the failure the
  // retry waits out rather than send a refresh of its own. Only the retry itself, `refresh()` and the app coming
  // back `force` a refresh. Whatever it joins, an operation's wait ends by OPERATION_WAIT after `since`: a pair
  // followed meanwhile may be refused too (read late by a frozen tab, its access token is dead on the server),
  // and the refresh of its replay can queue for a lock that another frozen tab holds.
  async function renew(from: Live, trigger: RefreshTrigger, force = false, since = clock.now()): Promise<Live> {
    const operation = !force && (trigger === 'token-expired' || trigger === 'expired-locally');
    let patient = operation;
    for (;;) {
      if (from.retry && !force && !from.refreshing) {
        const at = from.retry.at ?? Infinity;
        if (!patient || at - since > RETRY_JOIN) throw from.retry.error;
        patient = false;
        await sleep(at - clock.now());
      }
      if (live === from) {
        from.refreshing ??= rotate(from, trigger).finally(() => {
          from.refreshing = undefined;
        });
      }
      // dispose() fails the waiters at once, though a refresh already sent goes on to store its pair.
      await new Promise((resolve, reject) => {
        const done = () => resolve(clock.clearTimeout(deadline));
        const deadline = operation ? clock.setTimeout(done, since + OPERATION_WAIT - clock.now()) : undefined;
        joins.add(done);
        Promise.resolve(signal.aborted || from.refreshing)
          .then(done, reject)
          .then(() => joins.delete(done));
      });
      if (signal.aborted) throw signal.reason;
      const now = live as Live | null;
      // Still this record, its refresh still out: the operation's wait is over.
      if (now === from && from.refreshing) {
        throw from.retry?.error ?? new AuthRequestError('Waited 21 s for a new access token.', 'refreshToken');
      }
      // Still this record: the refresh failed without a verdict (the retry it scheduled holds the failure).
      if (now === from && patient && from.retry) continue;
      if (now === from) throw from.retry?.error ?? signal.reason;
      // The operation's view of it: a replay's wait counts from when the operation began.
      if (now?.epoch === from.epoch) return operation ? ({ __proto__: now, since } as unknown as Live) : now;
      throw from.epoch.ended ?? noSession();
    }
  }

  // Settles once the rotation is applied, whatever it came to: waiters then read the state.
  async function rotate(from: Live, trigger: RefreshTrigger): Promise<void> {
    const wanted = () => live === from;
    const notify = (outcome: RefreshEvent['outcome'], error?: unknown) =>
      tell(options.onRefresh, { trigger, outcome, error });
    // Never two refreshes back to back: the floor slows a storm (getRefreshFloor).
    await waitForFloor(from, trigger);
    if (signal.aborted) return;
    if (!wanted()) return notify('superseded');
    let rotation: Rotation;
    try {
      rotation = await seam.rotate(from.pair, (pair) => exchange(from, pair), wanted);
    } catch (error) {
      // Cut short by dispose(): not a failure to report or retry.
      if (signal.aborted) return;
      if (!wanted()) return notify('superseded');
      // An uncertain refusal is retried like an outage, until the service has answered so REFUSALS times.
      const uncertain =
        AuthRejectedError.is(error) && error.uncertain && (from.refusals = (from.refusals ?? 0) + 1) < REFUSALS;
      if (AuthRequestError.is(error) || uncertain) {
        retryLater(from, error as Error);
        if (BACKGROUND.test(trigger)) report(error);
        return notify('failed', error);
      }
      const over = SessionEndedError.is(error);
      // A service that keeps the session may say it has none (quietly signed out, while the page was still
      // finding out) or that it was logged out; any other refusal, or no session mid-way, is a rejection.
      const reason = over && (error.reason !== 'no-session' || !from.pair.accessToken) ? error.reason : 'rejected';
      // This session's own logout never gets here: a `logout` answer is one made elsewhere.
      end(reason, over ? error.cause : error, undefined, reason === 'logout');
      return notify('rejected', error);
    }
    const { orphan } = rotation;
    // An adopted pair that a session sharing the store kept without its time of issue, and that looks dead by
    // this clock, is timed from now: renewing it at once would renew every pair that follows it too.
    const pair = rotation.adopted ? seen(rotation.pair!) : rotation.pair;
    // An adopted pair is this session's newest too: a logout revokes it, not the spent one. Once this session is
    // being revoked (logged out, or replaced by a login), a pair in the store is a newer session's: not its own.
    if (rotation.adopted && !from.revoking) from.next = pair!;
    if (orphan && !from.revoking && !transport.ownsSession) revoke(orphan);
    // Followed already (the store told of the pair before this answer came), or not wanted any more.
    const applied = pair?.refreshToken === (live as Live | null)?.pair.refreshToken;
    if (wanted() && !pair) end(rotation.reason ?? 'logout', undefined, undefined, !rotation.reason);
    else if (wanted() && !applied) switchTo(record(pair!, from));
    else if (!applied) return notify('superseded');
    notify(!pair ? 'superseded' : rotation.adopted ? 'adopted' : 'rotated');
  }

  // The refresh request itself; it runs under the store's lock when the store is shared.
  async function exchange(from: Live, pair: TokenPair): Promise<TokenPair> {
    sentAt = spendFloor(clock.now(), floor, sentAt);
    if (signal.aborted) throw signal.reason;
    from.sent = true;
    const answer = await call('refreshToken', (signal) => transport.refresh(pair.refreshToken, signal), !seam.volatile);
    try {
      return (from.next = readTokenPair(answer, 'refreshToken', clock.now()));
    } catch (error) {
      // The service spent the old token and sent nothing usable: a refresh token it carried is revoked.
      const { accessToken, refreshToken } = answer ?? {};
      if (typeof refreshToken === 'string') revoke({ accessToken: String(accessToken ?? ''), refreshToken });
      throw new SessionEndedError('rejected', error);
    }
  }

  // Every auth call is bounded by refreshTimeout and aborted by dispose(); what it throws without a verdict
  // becomes an AuthRequestError, so a custom transport cannot end a session by accident.
  // `outlives`: a call dispose() does not abort (a refresh, once sent), only its timeout.
  async function call<T>(operation: string, run: (signal: AbortSignal) => Promise<T>, outlives = false): Promise<T> {
    const ms = options.refreshTimeout ?? 30_000;
    try {
      // A refresh the service answered as its bound ran out is read, not abandoned: its token is spent, and
      // submitting it again would be reuse.
      return await bounded(
        clock,
        ms,
        () => new AuthRequestError(`${operation} got no answer within ${ms} ms.`, operation),
        run,
        outlives ? undefined : signal,
        operation === 'refreshToken' ? 1000 : 0,
      );
    } catch (error) {
      if (AuthRejectedError.is(error) || AuthRequestError.is(error) || SessionEndedError.is(error)) throw error;
      throw new AuthRequestError(`${operation} failed.`, operation, undefined, error);
    }
  }

  function revoke(pair: TokenPair): Promise<void> {
    return call('logout', (signal) => transport.logout(pair, signal)).then(() => {}, report);
  }

  // Sleeps until the floor lets a refresh of `from` go, showing the wait in the state.
  async function waitForFloor(from: Live, trigger: RefreshTrigger): Promise<void> {
    const at = getRefreshFloor(trigger, clock.now(), floor, sentAt, from.schedule);
    if (!(at > clock.now())) return;
    from.waiting = { at, trigger };
    if (live === from) publish(stateOf(from));
    await sleep(at - clock.now());
    from.waiting = undefined;
    if (live === from) publish(stateOf(from));
  }

  function background(trigger: RefreshTrigger): void {
    if (live) renew(live, trigger, true).catch(() => {});
  }

  function resumed(): void {
    if (!live || live.refreshing) return;
    // A retry waiting for the network to come back (no `at`) is due now.
    const due = live.retry ? (live.retry.at ?? 0) : (live.schedule?.refreshAt ?? Infinity);
    if (clock.now() >= due) background('resume');
  }

  function retryLater(from: Live, error: Error): void {
    const attempt = (from.retry?.attempt ?? 0) + 1;
    const { retryDelay = getRetryDelay } = options;
    const delay = typeof retryDelay === 'number' ? retryDelay : retryDelay(attempt);
    // Offline, the retry waits for the app to come back instead of failing on a timer; online, not before the
    // floor.
    const at = resume?.isOnline?.() === false ? undefined : Math.max(clock.now() + delay, sentAt.last + floor);
    from.retry = { at, error, attempt };
    if (at === undefined || signal.aborted) timer.cancel();
    else timer.at(at);
    publish(stateOf(from));
  }

  function restore(pair: TokenPair | null, from: Epoch): void {
    if (from !== epoch) return;
    if (!pair) return publish(SIGNED_OUT);
    const restored = record(pair, from);
    if (!isDead(restored)) return switchTo(restored);
    // A dead access token: `loading` until the refresh says whether the session is still good.
    live = restored;
    renew(restored, 'restore').catch(() => {});
  }

  // A session sharing the store stored `pair` (or emptied it). A pair of the same user continues the epoch, so
  // operations waiting on this session's refresh take it; a login as someone else ends the epoch.
  function follow(pair: TokenPair | null, reason: 'rejected' | 'logout' = 'logout'): void {
    if (signal.aborted || (live ? live.pair.refreshToken === pair?.refreshToken : !pair && !restoring)) return;
    if (pair) switchTo(record(seen(pair), live ?? {}));
    else end(reason, undefined, undefined, reason === 'logout');
  }

  // Makes `next` the live session; one of another epoch ends the current one as replaced, by a login `here` or
  // elsewhere. A session that starts from none (a login, here or followed) leaves the last end behind.
  function switchTo(next: Live, here = false): void {
    if (live && live.epoch !== next.epoch) return end('replaced', undefined, next, !here);
    if (!live) ended = undefined;
    activate(next);
  }

  function activate(next: Live): void {
    epoch = next.epoch;
    live = next;
    // Operations waiting on the refresh of the pair this one replaces (queued for a lock, sleeping out a floor or
    // a retry) go out with this one now. A record is activated once, so none waits on `next` yet.
    wake(joins);
    wake();
    if (next.schedule && !signal.aborted) timer.at(next.schedule.refreshAt);
    else timer.cancel();
    publish(stateOf(next));
  }

  // Ends the current epoch; `next` takes over at once when a login replaced it. `elsewhere`: a session sharing
  // the store logged out or logged in.
  function end(reason: SessionEndReason, cause?: unknown, next?: Live, elsewhere = false): void {
    const was = live;
    const error = new SessionEndedError(reason, cause);
    epoch.ended = error;
    epoch = {};
    live = null;
    timer.cancel();
    wake();
    const told = was && reason !== 'no-session';
    const said = AuthRejectedError.is(cause) && cause.message;
    const facts = {
      elsewhere,
      ...(was && reason === 'rejected' && { rejection: rejectionOf(was, cause), ...(said && { message: said }) }),
    };
    // Kept for a user the app knew, or a stored session (a token handler's cookie) refused at restore: not for
    // a cookie that turns out to be logged out. A login here starts afresh.
    if (told && (was.pair.accessToken || reason === 'rejected'))
      ended = next && !elsewhere ? undefined : { reason, ...facts, at: clock.now() };
    if (next) activate(next);
    // Signed out with the reason an app can show: a rejection, or why a session could not be had at all.
    else
      publish(
        reason === 'rejected'
          ? { ...SIGNED_OUT, error }
          : cause instanceof Error
            ? { ...SIGNED_OUT, error: cause }
            : SIGNED_OUT,
      );
    if (told) tell(options.onSessionEnd, { reason, error: cause, ...facts });
  }

  // A refused refresh token had expired if its own `exp` (by this clock, corrected by the skew the access
  // token showed) has passed, or a token handler says so; any other refusal revokes it.
  function rejectionOf({ pair, user, schedule }: Live, cause: unknown): 'expired' | 'revoked' {
    if ((cause as AuthRejectedError | undefined)?.code === 'SESSION_EXPIRED') return 'expired';
    try {
      // A token handler's page holds no refresh token: the access token stands in for it.
      const { exp } = pair.refreshToken === pair.accessToken ? {} : jwtDecode<{ exp?: number }>(pair.refreshToken);
      const skew = schedule && user.claims.exp ? schedule.expiresAt - user.claims.exp * 1000 : 0;
      // Within 2 s: the skew is known to a second (`iat` and `exp` are whole seconds) plus a round trip.
      if (exp! * 1000 + skew <= clock.now() + 2_000) return 'expired';
    } catch {
      // An opaque refresh token says nothing of its life.
    }
    return 'revoked';
  }

  // A record for `pair`: one received just now carries `receivedAt`; one from the store is timed by its `exp`,
  // adjusted by the skew learnt earlier. In `into`, or, after a live session, in its epoch for the same user
  // and in a new one for another.
  function record(pair: TokenPair, into: Epoch | Live, known?: Partial<TokenUser>): Live {
    let claims: TokenClaims;
    try {
      claims = decodeAccessToken(pair.accessToken);
    } catch {
      // The refresh token may still be good: treat the access token as dead and renew the pair.
      claims = { exp: 0 };
    }
    const { receivedAt } = pair;
    const role = claims[options.roleClaim ?? 'role'];
    const prior = 'pair' in into ? into : undefined;
    const id = String(known?.id ?? claims.sub ?? prior?.user.id ?? '');
    // An unknown user (a stored access token that could not be read) is taken to be the same one.
    const same = prior && (!prior.user.id || prior.user.id === id) ? prior : undefined;
    known ??= same?.user;
    const email = known?.email ?? claims.email;
    return {
      epoch: prior ? (same?.epoch ?? {}) : (into as Epoch),
      pair,
      user: {
        id,
        ...(typeof email === 'string' && { email }),
        role: typeof role === 'string' ? role : known?.role,
        claims,
      },
      schedule: getTokenSchedule(claims, options.refreshLeadTime ?? 150_000, receivedAt),
    };
  }

  function isDead(of: Live): boolean {
    return !!of.schedule && clock.now() >= of.schedule.expiresAt;
  }

  // A pair another session stored without its time of issue, that looks dead by this clock: the clocks
  // disagree (a pair just renewed is not dead), so it is timed from when it was seen, by its own lifetime.
  function seen(pair: TokenPair): TokenPair {
    if (pair.receivedAt !== undefined) return pair;
    const probe = record(pair, {});
    return probe.schedule && isDead(probe) ? { ...pair, receivedAt: clock.now() } : pair;
  }

  // Resolves after `ms` (at once for none), or when the session ends or the app asks for a refresh.
  function sleep(ms: number): Promise<void> {
    if (!(ms > 0) || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clock.clearTimeout(handle);
        sleepers.delete(done);
        resolve();
      };
      const handle = clock.setTimeout(done, ms);
      // Someone waits on it (an operation, a refresh): unlike the proactive timer, it holds a Node process up.
      (handle as { ref?: () => void } | undefined)?.ref?.();
      sleepers.add(done);
    });
  }

  function wake(waits = sleepers): void {
    for (const done of [...waits]) done();
  }

  function publish(next: TokenAuthState): void {
    if (ended) next = { ...next, ended };
    const keys = Object.keys(next) as Array<keyof TokenAuthState>;
    // An unchanged state is not published again.
    if (keys.length === Object.keys(state).length && keys.every((key) => next[key] === state[key])) return;
    state = next;
    for (const listener of listeners) tell(listener, undefined);
  }

  // The app's callbacks run here: one that throws must not stop a rotation half way, which would leave the
  // new pair unused and the spent refresh token in place.
  function tell<T>(callback: ((value: T) => void) | undefined, value: T): void {
    try {
      callback?.(value);
    } catch (error) {
      report(error);
    }
  }

  function report(error: unknown): void {
    try {
      options.onError?.(error);
    } catch {
      // onError itself failed: there is nowhere left to report to.
    }
  }
}

const noSession = () => new SessionEndedError('no-session');

function stateOf({ pair, user, schedule, retry, waiting }: Live): TokenAuthState {
  // No access token yet (a split store's, a token handler's restore): whether there is a session is not known.
  if (!pair.accessToken) return { ...LOADING, ...(retry && { retry }), ...(waiting && { waiting }) };
  return {
    status: 'authenticated',
    user,
    // The schedule is exactly { expiresAt, refreshAt }.
    ...schedule,
    ...(retry && { retry }),
    ...(waiting && { waiting }),
  };
}
