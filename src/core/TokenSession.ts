import { AuthRejectedError } from './AuthRejectedError';
import { LOGIN, LOGOUT, REFRESH } from './authDocuments';
import { type Clock, systemClock } from './Clock';
import { createMemoryTokenStore } from './createMemoryTokenStore';
import { assertNotLocalStorage } from './createSplitTokenStore';
import { getTokenSchedule, type TokenSchedule } from './getTokenSchedule';
import { type Lock, lockFor } from './lock';
import { type AuthTransport, postAuthMutation } from './postAuthMutation';
import { decodeAccessToken, isTokenPair, readTokenPair, type TokenClaims } from './readTokenPair';
import { RefreshTimer } from './RefreshTimer';
import { SessionEndedError, type SessionEndReason } from './SessionEndedError';
import type { TokenAuthState, TokenUser } from './TokenAuthState';
import type { TokenPair, TokenStore } from './TokenStore';

/** Options of {@link TokenSession}; `createTokenAuth` takes the same and a few for its links. */
export interface TokenSessionOptions {
  /** The GraphQL endpoint that serves `loginWithEmailPassword`, `refreshToken` and `logout`. */
  uri: string;
  /**
   * Where the pair is kept. `window.localStorage` is refused with an error, as the spec forbids it.
   * @defaultValue `createMemoryTokenStore()`
   */
  store?: TokenStore;
  /**
   * How long before the access token expires the proactive refresh runs, in ms.
   * @defaultValue `150_000` (2.5 minutes, inside the spec's 2 to 3)
   */
  refreshLeadTime?: number;
  /**
   * How long an auth mutation may take before it fails with an `AuthRequestError`, in ms.
   * @defaultValue `30_000`
   */
  refreshTimeout?: number;
  /**
   * The `fetch` used for auth mutations.
   * @defaultValue `globalThis.fetch`, read at call time
   */
  fetch?: typeof fetch;
  /** Extra headers sent with the auth mutations (not with your operations: set those on `HttpLink`). */
  headers?: Record<string, string>;
  /**
   * The access-token claim that holds the role.
   * @defaultValue `'role'`
   */
  roleClaim?: string;
  /** Called once whenever a session ends, by `logout()` or because the service rejected the refresh token. */
  onSessionEnd?: (event: SessionEndEvent) => void;
  /** Called when each refresh request settles: what started it and how it ended. For logs and metrics. */
  onRefresh?: (event: RefreshEvent) => void;
  /**
   * Called with failures nobody awaits: a proactive refresh that failed on the network, a store that threw,
   * a logout call that did not reach the server.
   */
  onError?: (error: unknown) => void;
  /**
   * Time source and timers.
   * @defaultValue `systemClock`
   */
  clock?: Clock;
  /**
   * Serializes refreshes between the sessions that share a store; inside it the store is read again, and a
   * pair another session already rotated is adopted instead of refreshed.
   * @defaultValue Web Locks where they exist (every tab of the origin), else a lock shared by the sessions of
   * this realm that share the store object
   */
  lock?: Lock;
  /**
   * The name of the lock. Sessions of different users or services that share nothing may use different names.
   * @defaultValue `'apollo-link-token-pair'`
   */
  lockName?: string;
  /**
   * Refresh when the page becomes visible, the browser comes back online, or the window gets focus, if the
   * proactive refresh is due by then: background tabs throttle timers and laptops sleep.
   * @defaultValue `true` (only where `window` exists)
   */
  refreshOnResume?: boolean;
}

/** What {@link TokenSessionOptions.onSessionEnd} receives. */
export interface SessionEndEvent {
  /** `logout` or `rejected`. */
  readonly reason: Exclude<SessionEndReason, 'no-session'>;
  /** The rejection, when the service rejected the refresh token. */
  readonly error?: unknown;
}

/**
 * What started a refresh: the proactive timer (or its retry after a transient failure), an operation answered
 * `TOKEN_EXPIRED`, an operation whose token was already dead by the local clock, `refresh()`, a restored pair
 * whose access token was dead, or the page coming back (visible, online, focused) after the refresh was due.
 */
export type RefreshTrigger = 'proactive' | 'token-expired' | 'expired-locally' | 'manual' | 'restore' | 'resume';

/** What {@link TokenSessionOptions.onRefresh} receives. */
export interface RefreshEvent {
  /** What started the refresh; later callers joined it. */
  readonly trigger: RefreshTrigger;
  /**
   * `rotated`: a new pair is in use. `adopted`: another session sharing the store had rotated already, and its
   * pair is in use, with no request. `rejected`: the session ended. `failed`: a transient failure, the session
   * is kept. `superseded`: the session ended or was replaced while the request was out.
   */
  readonly outcome: 'rotated' | 'adopted' | 'rejected' | 'failed' | 'superseded';
  /** The failure, for `rejected` and `failed`. */
  readonly error?: unknown;
}

// What a refresh came to, decided inside the lock: a new pair from the service; a pair another session had
// stored already; an empty store (a logout, here or in another session); or an answer that spent the old
// token unusably. `orphan` is a new pair the service issued that nobody will use: it is to be revoked.
type Rotation =
  | { kind: 'rotated'; pair: TokenPair; claims: TokenClaims; receivedAt: number }
  | { kind: 'adopted'; pair: TokenPair; orphan?: TokenPair }
  | { kind: 'gone'; orphan?: TokenPair }
  | { kind: 'unusable'; error: unknown };

interface Session {
  readonly pair: TokenPair;
  readonly user: TokenUser;
  readonly schedule: TokenSchedule | null;
}

const LOADING: TokenAuthState = { status: 'loading', user: null };
const SIGNED_OUT: TokenAuthState = { status: 'unauthenticated', user: null };
const MAX_RETRY_DELAY = 30_000;
// How many refresh tokens this session remembers having spent, so it never adopts one again.
const SPENT_MEMORY = 16;

/**
 * The token state that the links, the timer and the React binding share: the pair, the single in-flight
 * refresh, and the proactive timer.
 *
 * @remarks
 * Every path that needs a new pair (an operation whose token is dead, a `TOKEN_EXPIRED` answer, the timer,
 * `refresh()`) joins the one promise in `#inflight`, so a single-use refresh token is submitted once.
 * `#epoch` counts sessions: a refresh that answers after a logout or a new login belongs to an old epoch and
 * cannot bring its pair back.
 */
export class TokenSession {
  readonly #store: TokenStore;
  readonly #clock: Clock;
  readonly #transport: AuthTransport;
  readonly #leadTime: number;
  readonly #roleClaim: string;
  readonly #onSessionEnd: ((event: SessionEndEvent) => void) | undefined;
  readonly #onRefresh: ((event: RefreshEvent) => void) | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #timer: RefreshTimer;
  readonly #lock: Lock;
  readonly #lockName: string;
  readonly #spent = new Set<string>();
  readonly #teardown: Array<() => void> = [];

  #state: TokenAuthState = LOADING;
  #current: Session | null = null;
  #epoch = 0;
  #restoring: Promise<TokenPair | null> | null;
  #inflight: { readonly done: Promise<void>; readonly rotation: Promise<Rotation> } | null = null;
  // Restores, refreshes and store writes under way; changes made by other sessions are followed only when
  // none is, so that this session's own work cannot be overtaken by what it is about to replace.
  #busy = 0;
  // The store missed this session's last write: what it holds says nothing about other sessions then.
  #unsaved = false;
  #followPending = false;
  // How far the local clock is ahead of the server's, learnt from the last pair this session received itself.
  #skew: number | undefined;
  #followTicket = 0;
  #failures = 0;
  #disposed = false;

  constructor(options: TokenSessionOptions) {
    assertNotLocalStorage(options.store);
    this.#store = options.store ?? createMemoryTokenStore();
    this.#clock = options.clock ?? systemClock;
    this.#transport = {
      uri: options.uri,
      fetch: options.fetch,
      headers: options.headers,
      timeout: options.refreshTimeout ?? 30_000,
      clock: this.#clock,
    };
    this.#leadTime = options.refreshLeadTime ?? 150_000;
    this.#roleClaim = options.roleClaim ?? 'role';
    this.#onSessionEnd = options.onSessionEnd;
    this.#onRefresh = options.onRefresh;
    this.#onError = options.onError;
    this.#timer = new RefreshTimer(this.#clock, () => this.#refreshInBackground('proactive'));
    this.#lock = options.lock ?? lockFor(this.#store);
    this.#lockName = options.lockName ?? 'apollo-link-token-pair';
    this.#restoring = this.#track(this.#restore()).finally(() => {
      this.#restoring = null;
    });
    const unsubscribe = this.#store.subscribe?.(() => void this.#follow());
    if (unsubscribe) this.#teardown.push(unsubscribe);
    if (options.refreshOnResume !== false) this.#listenForResume();
  }

  /** The current state; the same object until the next change, as `useSyncExternalStore` needs. */
  getState = (): TokenAuthState => this.#state;

  /** Calls `listener` after every state change; returns the function that stops it. */
  subscribe = (listener: () => void): (() => void) => {
    if (this.#disposed) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /**
   * Logs in with the spec's `loginWithEmailPassword` and starts a new session, replacing any other.
   *
   * @throws `AuthRejectedError` (code `INVALID_CREDENTIALS` or what the server sends) for bad credentials;
   * `AuthRequestError` when the service could not be reached or answered something malformed. Nothing is
   * stored then, and the failure shows as `error` in the state.
   */
  login = async (email: string, password: string): Promise<{ user: TokenUser }> => {
    let session: Session;
    try {
      const data = await postAuthMutation(this.#transport, 'loginWithEmailPassword', LOGIN, { email, password });
      const { pair, claims } = readTokenPair(data, 'loginWithEmailPassword');
      const receivedAt = this.#clock.now();
      const user = (data as { user?: Partial<TokenUser> }).user;
      session = this.#toSession({ ...pair, receivedAt }, claims, receivedAt, user);
    } catch (error) {
      this.#publish({ ...this.#state, error: error as Error });
      throw error;
    }
    const epoch = ++this.#epoch;
    this.#inflight = null;
    this.#activate(session);
    // A new session: a logout elsewhere that did not know it (it revokes the pair it knew) does not end it.
    await this.#write(epoch, session.pair);
    return { user: session.user };
  };

  /**
   * Ends the session: at once on this client, then on the server with the spec's `logout(refreshToken:)`.
   *
   * @remarks
   * Resolves even when the server cannot be reached (that failure goes to `onError`): the local session is
   * over either way. Operations waiting for a refresh fail with `SessionEndedError`, and sessions sharing the
   * store end too. The newest pair is the one revoked: one a refresh in flight brings, or one another session
   * stored, or the stored pair still being read.
   */
  logout = async (): Promise<void> => {
    const restoring = this.#restoring;
    const inflight = this.#inflight;
    // Candidates for revocation, newest last: the server should get the newest pair, not a spent one.
    const pairs: Array<TokenPair | null | undefined> = [this.#current?.pair];
    this.#end('logout');
    // Cleared at once, not under the lock: sessions sharing the store follow now, not after a refresh that
    // may hold the lock until it times out. A refresh that is out reads the store again before it writes.
    pairs.push(await this.#clear());
    if (restoring) pairs.unshift(await restoring);
    if (inflight) {
      try {
        const rotation = await inflight.rotation;
        // An adopted pair is this session's newest, unless the store was replaced by a login elsewhere: then
        // only the orphan is this session's.
        if (rotation.kind === 'rotated') pairs.push(rotation.pair);
        else if (rotation.kind !== 'unusable') pairs.push(rotation.orphan ?? (rotation.kind === 'adopted' ? rotation.pair : undefined));
      } catch {
        // No new pair came of it.
      }
    }
    // Once more under the lock, after this session's own writes and refreshes that were under way: a pair of
    // this session's that one of them stored is cleared too. A login elsewhere is not this session's to end.
    await this.#locked(async () => {
      const late = await this.#read();
      if (late && pairs.some((pair) => pair?.refreshToken === late.refreshToken)) await this.#put(null);
    });
    const revoke = pairs.filter((pair): pair is TokenPair => !!pair).at(-1);
    if (!revoke) return;
    try {
      await postAuthMutation(this.#transport, 'logout', LOGOUT, { refreshToken: revoke.refreshToken }, revoke.accessToken);
    } catch (error) {
      this.#report(error);
    }
  };

  /**
   * Renews the pair now with the spec's `refreshToken(token:)`.
   *
   * @remarks
   * Single flight: concurrent callers, operations and the proactive timer share one request.
   *
   * @throws `SessionEndedError` when there is no session or the service rejected the refresh token (the
   * session is then over); `AuthRequestError` for a transient failure (the session is kept).
   */
  refresh = async (): Promise<void> => {
    if (this.#restoring) await this.#restoring;
    return this.#refresh('manual');
  };

  /**
   * The access token to send now: waits while the stored pair loads or a refresh runs, and renews a token
   * that is already dead by the local clock before it is sent. `null` when nobody is logged in.
   *
   * @example Authenticate a `graphql-ws` connection:
   * ```ts
   * createClient({ url, connectionParams: async () => ({ authorization: `Bearer ${await auth.getAccessToken()}` }) });
   * ```
   */
  getAccessToken = (): Promise<string | null> => Promise.resolve(this.accessToken());

  /**
   * Like {@link TokenSession.getAccessToken}, but synchronous when no wait is needed, which is almost always.
   * @internal Used by `TokenAuthLink`.
   */
  accessToken(): string | null | Promise<string | null> {
    if (this.#restoring) return this.#restoring.then(() => this.accessToken());
    const current = this.#current;
    if (!current) return null;
    if (this.#inflight || (current.schedule && this.#clock.now() >= current.schedule.expiresAt)) {
      // The token that comes back is used as it is: re-checking it could loop on a server whose tokens look
      // dead to the local clock.
      return this.#refresh('expired-locally').then(() => this.#current?.pair.accessToken ?? null);
    }
    return current.pair.accessToken;
  }

  /**
   * Makes a fresh token available after an operation sent with `usedToken` came back `TOKEN_EXPIRED`.
   *
   * @remarks
   * Resolves at once when the pair was already replaced since `usedToken` went out; otherwise joins or starts
   * the one refresh.
   * @internal Used by `TokenExpiredLink`.
   */
  async recover(usedToken: string | undefined): Promise<void> {
    if (this.#restoring) await this.#restoring;
    const current = this.#current;
    if (!current) throw new SessionEndedError('no-session');
    if (current.pair.accessToken !== usedToken) return;
    return this.#refresh('token-expired');
  }

  /**
   * Stops the timer and drops every listener, so a Node process can exit. The stored pair stays; a refresh
   * already in flight still stores its result.
   */
  dispose = (): void => {
    this.#disposed = true;
    this.#timer.cancel();
    this.#listeners.clear();
    for (const teardown of this.#teardown.splice(0)) teardown();
  };

  #refresh(trigger: RefreshTrigger): Promise<void> {
    if (this.#inflight) return this.#inflight.done;
    const current = this.#current;
    if (!current) return Promise.reject(new SessionEndedError('no-session'));
    const epoch = this.#epoch;
    const rotation = this.#lock(this.#lockName, () => this.#rotate(current.pair, epoch));
    const done = this.#track(
      rotation.then(
        (rotated) => {
          if (epoch !== this.#epoch) {
            // After a logout, logout() revokes the orphan; after a login, nobody else would.
            if (this.#current && 'orphan' in rotated) this.#revokeInBackground(rotated.orphan);
            return this.#superseded(trigger);
          }
          switch (rotated.kind) {
            case 'rotated':
              this.#activate(this.#toSession(rotated.pair, rotated.claims, rotated.receivedAt, current.user));
              return this.#notify(this.#onRefresh, { trigger, outcome: 'rotated' });
            case 'adopted':
              this.#revokeInBackground(rotated.orphan);
              this.#activate(this.#fromStore(rotated.pair, current.user));
              return this.#notify(this.#onRefresh, { trigger, outcome: 'adopted' });
            case 'gone':
              this.#revokeInBackground(rotated.orphan);
              this.#notify(this.#onRefresh, { trigger, outcome: 'superseded' });
              throw this.#end('logout');
            case 'unusable':
              return this.#rejected(trigger, rotated.error);
          }
        },
        (error: unknown) => {
          if (epoch !== this.#epoch) return this.#superseded(trigger, error);
          if (AuthRejectedError.is(error)) return this.#rejected(trigger, error);
          this.#retryLater();
          this.#notify(this.#onRefresh, { trigger, outcome: 'failed', error });
          throw error;
        },
      ),
    )
      .finally(() => {
        if (this.#inflight?.done === done) this.#inflight = null;
      });
    this.#inflight = { done, rotation };
    return done;
  }

  // Runs under the lock. The store is read again first: a session sharing it may have rotated or ended the pair
  // while this one waited; and again before writing, since a logout clears it without the lock. The new pair is
  // stored before the lock is released, so the next holder reads it.
  async #rotate(pair: TokenPair, epoch: number): Promise<Rotation> {
    // Ended while waiting for the lock: the caller sees the epoch changed and settles without a request.
    if (epoch !== this.#epoch) return { kind: 'gone' };
    const stored = await this.#readShared();
    if (stored === null || epoch !== this.#epoch) return { kind: 'gone' };
    if (stored && this.#isNewer(stored, pair)) return { kind: 'adopted', pair: stored };
    this.#remember(pair.refreshToken);
    let rotated: Extract<Rotation, { kind: 'rotated' }>;
    try {
      const data = await postAuthMutation(this.#transport, 'refreshToken', REFRESH, { token: pair.refreshToken });
      try {
        const { pair: next, claims } = readTokenPair(data, 'refreshToken');
        const receivedAt = this.#clock.now();
        rotated = { kind: 'rotated', pair: { ...next, receivedAt }, claims, receivedAt };
      } catch (error) {
        // The service has spent the old refresh token and sent nothing we can use.
        await this.#clearIfHolds(pair);
        return { kind: 'unusable', error };
      }
    } catch (error) {
      if (AuthRejectedError.is(error)) {
        // Rejected as reused: another session may have won a race the lock could not see (one that shares the
        // store but not the lock). Its pair, if stored, is good.
        const winner = await this.#readShared();
        if (winner && this.#isNewer(winner, pair)) return { kind: 'adopted', pair: winner };
        // Before the lock is released, so that no session waiting for it submits the refused token again.
        await this.#clearIfHolds(pair);
      }
      throw error;
    }
    // A logout or login elsewhere, or of this session, may have replaced the pair while the request was out:
    // the new pair then belongs to nobody, and the spent one must not stay in the store.
    const now = await this.#readShared();
    if (epoch === this.#epoch && (now === undefined || now?.refreshToken === pair.refreshToken)) {
      await this.#put(rotated.pair);
      return rotated;
    }
    await this.#clearIfHolds(pair);
    if (epoch === this.#epoch && now) return { kind: 'adopted', pair: now, orphan: rotated.pair };
    return { kind: 'gone', orphan: rotated.pair };
  }

  async #clearIfHolds(pair: TokenPair): Promise<void> {
    if ((await this.#readShared())?.refreshToken === pair.refreshToken) await this.#put(null);
  }

  // Empties the store; resolves what it held.
  async #clear(): Promise<TokenPair | null | undefined> {
    const stored = await this.#read();
    if (stored !== null) await this.#put(null);
    return stored;
  }

  // Follows a change another session made to the shared store: a rotation, a login, or a logout. Only the
  // latest read counts, and none while this session has work under way: it runs again once that is done.
  async #follow(): Promise<void> {
    if (this.#disposed) return;
    if (this.#busy) {
      this.#followPending = true;
      return;
    }
    const ticket = ++this.#followTicket;
    const epoch = this.#epoch;
    const stored = await this.#readShared();
    if (ticket !== this.#followTicket || epoch !== this.#epoch || stored === undefined) return;
    if (this.#busy) return void (this.#followPending = true);
    const current = this.#current;
    if (stored === null) {
      if (current) this.#end('logout');
      return;
    }
    if (current ? !this.#isNewer(stored, current.pair) : this.#spent.has(stored.refreshToken)) return;
    this.#epoch++;
    this.#activate(this.#fromStore(stored, current?.user));
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#busy++;
    return work.finally(() => {
      if (--this.#busy || !this.#followPending) return;
      this.#followPending = false;
      void this.#follow();
    });
  }

  // Store writes run under the lock, so that they cannot land in the middle of a refresh of a session sharing
  // the store; only logout's first clear does not wait for it.
  #locked(task: () => Promise<void>): Promise<void> {
    return this.#track(this.#lock(this.#lockName, task)).catch((error: unknown) => this.#report(error));
  }

  // Writes `next` unless this session's epoch moved on: a newer login or logout owns the store then.
  #write(epoch: number, next: TokenPair | null): Promise<void> {
    return this.#locked(async () => {
      if (epoch === this.#epoch) await this.#put(next);
    });
  }

  async #put(next: TokenPair | null): Promise<void> {
    try {
      await (next ? this.#store.set(next) : this.#store.clear());
      this.#unsaved = false;
    } catch (error) {
      this.#unsaved = next !== null;
      this.#report(error);
    }
  }

  #readShared(): Promise<TokenPair | null | undefined> {
    return this.#unsaved ? Promise.resolve(undefined) : this.#read();
  }

  // The stored pair, `null` when the store is empty, or `undefined` when it cannot be read.
  async #read(): Promise<TokenPair | null | undefined> {
    try {
      const stored = await this.#store.get();
      return isTokenPair(stored) ? stored : null;
    } catch (error) {
      this.#report(error);
      return undefined;
    }
  }

  // A stored pair replaces ours only if it is another pair and not one this session has already spent: a
  // store whose write failed may still hold a spent pair, and adopting it would spend it again.
  #isNewer(stored: TokenPair, ours: TokenPair): boolean {
    return stored.refreshToken !== ours.refreshToken && !this.#spent.has(stored.refreshToken);
  }

  #remember(refreshToken: string): void {
    this.#spent.add(refreshToken);
    if (this.#spent.size > SPENT_MEMORY) this.#spent.delete(this.#spent.values().next().value!);
  }

  // A pair the service issued for a refresh whose session had moved on by the time it answered.
  #revokeInBackground(pair: TokenPair | undefined): void {
    if (!pair) return;
    postAuthMutation(this.#transport, 'logout', LOGOUT, { refreshToken: pair.refreshToken }, pair.accessToken).catch(
      (error: unknown) => this.#report(error),
    );
  }

  // Nobody awaits these: a session that ended has told onSessionEnd already; anything else goes to onError.
  #refreshInBackground(trigger: RefreshTrigger): void {
    this.#refresh(trigger).catch((error: unknown) => {
      if (!SessionEndedError.is(error)) this.#report(error);
    });
  }

  // The refresh emptied the store under the lock already, if it still held the rejected pair.
  #rejected(trigger: RefreshTrigger, error: unknown): never {
    const ended = this.#end('rejected', error);
    this.#notify(this.#onRefresh, { trigger, outcome: 'rejected', error });
    throw ended;
  }

  // A refresh that answers after the session it belonged to ended: its waiters replay on the session that
  // replaced it, or fail if there is none.
  #superseded(trigger: RefreshTrigger, cause?: unknown): void {
    this.#notify(this.#onRefresh, { trigger, outcome: 'superseded' });
    if (!this.#current) throw new SessionEndedError('logout', cause);
  }

  // Resolves the stored pair, even when a login or logout made it moot meanwhile.
  async #restore(): Promise<TokenPair | null> {
    const epoch = this.#epoch;
    let stored: unknown;
    try {
      stored = await this.#store.get();
    } catch (error) {
      this.#report(error);
    }
    const pair = isTokenPair(stored) ? stored : null;
    if (epoch !== this.#epoch) return pair;
    if (!pair) {
      if (stored != null) await this.#write(epoch, null);
      this.#publish(SIGNED_OUT);
      return null;
    }
    const session = this.#fromStore(pair);
    if (!session.schedule || this.#clock.now() < session.schedule.expiresAt) {
      this.#activate(session);
      return pair;
    }
    this.#current = session;
    try {
      await this.#refresh('restore');
    } catch (error) {
      // A transient failure keeps the restored session, and the retry timer it armed stays as it is.
      if (epoch === this.#epoch) this.#publish(stateOf(session));
      if (!SessionEndedError.is(error)) this.#report(error);
    }
    return pair;
  }

  // A pair that was not received just now: timed by its exp against the local clock.
  #fromStore(pair: TokenPair, known?: TokenUser): Session {
    let claims: TokenClaims;
    try {
      claims = decodeAccessToken(pair.accessToken);
    } catch {
      // The refresh token may still be good: treat the access token as dead and renew the pair.
      claims = { exp: 0 };
    }
    // Received by another session or before a restart: timed from when it arrived, else as if this session had
    // received it, given how far the server's clock is from ours.
    const { iat } = claims;
    const receivedAt =
      typeof pair.receivedAt === 'number'
        ? pair.receivedAt
        : this.#skew !== undefined && typeof iat === 'number'
          ? iat * 1000 + this.#skew
          : undefined;
    // Another session may have logged in as someone else: keep what the login said only for the same user.
    return this.#toSession(pair, claims, receivedAt, known && known.id === String(claims.sub ?? known.id) ? known : undefined);
  }

  #listenForResume(): void {
    const target = globalThis as unknown as Partial<Window>;
    if (typeof target.addEventListener !== 'function' || typeof target.document === 'undefined') return;
    const resume = () => {
      const due = this.#current?.schedule?.refreshAt;
      if (this.#inflight || due === undefined || this.#clock.now() < due) return;
      if (target.document?.visibilityState !== 'hidden') this.#refreshInBackground('resume');
    };
    const events = ['online', 'focus'] as const;
    for (const event of events) target.addEventListener(event, resume);
    target.document.addEventListener('visibilitychange', resume);
    this.#teardown.push(() => {
      for (const event of events) target.removeEventListener?.(event, resume);
      target.document?.removeEventListener('visibilitychange', resume);
    });
  }

  #toSession(pair: TokenPair, claims: TokenClaims, receivedAt?: number, known?: Partial<TokenUser>): Session {
    if (receivedAt !== undefined && typeof claims.iat === 'number') this.#skew = receivedAt - claims.iat * 1000;
    const role = claims[this.#roleClaim];
    const email = known?.email ?? claims.email;
    const user: TokenUser = {
      id: String(known?.id ?? claims.sub ?? ''),
      ...(typeof email === 'string' ? { email } : undefined),
      role: typeof role === 'string' ? role : typeof known?.role === 'string' ? known.role : undefined,
      claims,
    };
    return { pair, user, schedule: getTokenSchedule(claims, this.#leadTime, receivedAt) };
  }

  #activate(session: Session): void {
    this.#current = session;
    this.#failures = 0;
    if (session.schedule && !this.#disposed) this.#timer.at(session.schedule.refreshAt);
    else this.#timer.cancel();
    this.#publish(stateOf(session));
  }

  // Ends the session in memory; the caller decides what the store gets. Returns the error that waiting
  // operations receive.
  #end(reason: 'logout' | 'rejected', cause?: unknown): SessionEndedError {
    const hadSession = this.#current !== null;
    const ended = new SessionEndedError(reason, cause);
    this.#epoch++;
    this.#current = null;
    this.#inflight = null;
    this.#failures = 0;
    this.#timer.cancel();
    this.#publish(reason === 'rejected' ? { ...SIGNED_OUT, error: ended } : SIGNED_OUT);
    if (hadSession) this.#notify(this.#onSessionEnd, { reason, ...(cause !== undefined && { error: cause }) });
    return ended;
  }

  #retryLater(): void {
    if (this.#disposed) return;
    const delay = Math.min(1000 * 2 ** this.#failures++, MAX_RETRY_DELAY);
    this.#timer.at(this.#clock.now() + delay);
  }

  #publish(state: TokenAuthState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of this.#listeners) this.#notify(listener, undefined);
  }

  // The app's callbacks run here: one that throws must not stop a rotation half way, which would leave the
  // new pair unused and the spent refresh token in place.
  #notify<T>(callback: ((value: T) => void) | undefined, value: T): void {
    try {
      callback?.(value);
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    try {
      this.#onError?.(error);
    } catch {
      // onError itself failed: there is nowhere left to report to.
    }
  }
}

function stateOf({ user, schedule }: Session): TokenAuthState {
  return {
    status: 'authenticated',
    user,
    ...(schedule && { expiresAt: schedule.expiresAt, refreshAt: schedule.refreshAt }),
  };
}
