import { AuthRequestError } from '../errors/AuthRequestError';
import { SessionEndedError } from '../errors/SessionEndedError';
import type { TokenPair } from '../tokens/TokenPair';
import { isSamePair, readAdoptedPair, readTokenPair } from '../tokens/readTokenPair';
import type { SignInAnswer, TransportAnswer } from '../transports/TokenAuthTransport';
import { createRefresher } from './createRefresher';
import { createRestorer } from './createRestorer';
import { describeEnd, type Ending } from './describeEnd';
import { createUserIdCheck } from './createUserIdCheck';
import { findDoor } from './findDoor';
import { openSessionParts } from './openSessionParts';
import { keptRefreshToken } from './sessionMode';
import { createRecord, isDead, SIGNED_OUT, stateOf, timeSeenPair } from './SessionRecord';
import type { Epoch, SentToken, SessionRecord } from './SessionRecord';
import type { TokenAuthOptions } from './TokenAuthOptions';
import type { TokenUser } from './TokenAuthState';
import type { Door } from './TokenAuthEvent';
import type { RefresherHost } from './RefresherHost';
import type { RestorerHost } from './RestorerHost';
import type { TokenSession } from './TokenSession';

/** Creates the {@link TokenSession} behind `createTokenAuth`. */
export function createTokenSession(options: TokenAuthOptions): TokenSession {
  // Each part is made after what it uses, and the outside (the store's changes, resume) is heard last: a source
  // may call back while it subscribes, and finds the whole session then.
  let live: SessionRecord | null = null;
  // The epoch a login, restore or followed pair now starts or extends; replaced whenever one ends.
  let epoch: Epoch = {};
  const started = epoch;
  let loggingOut: Promise<void> | null = null;
  const checkUserId = createUserIdCheck();

  const parts = openSessionParts(options, follow);
  const { config, reporter, signal, seam, mode, calls, waits, checks, state } = parts;
  const { clock, transport } = config;
  const refresher = createRefresher({ ...parts, live: () => live, switchTo, end } satisfies RefresherHost);
  // Reads the stored pair now (a synchronous store restores at once), and again while the store fails.
  const restorer = createRestorer({ ...parts, wanted: () => epoch === started, restore } satisfies RestorerHost);
  const initial = state.get();

  // The app came back: a refresh that fell due meanwhile goes, and a store that failed to be read is read again.
  const resumed = () => (refresher.resumed(), void restorer.read()?.catch(() => {}));
  seam.listen?.();
  const stops = [config.resume?.subscribe(resumed), seam.close];

  const current = (): SentToken | null | Promise<SentToken | null> => {
    if (live) {
      if (isDead(live, clock.now())) return refresher.renew(live, 'expired-locally');
      // Still good: it goes out now, and a refresh that fell due meanwhile starts beside it.
      refresher.overdue();
      return live;
    }
    const reading = restorer.read();
    if (!reading) return null;
    const waited = epoch;
    return reading.then(() => {
      if (waited.ended) throw waited.ended;
      return current();
    });
  };

  return {
    getState: state.get,
    getInitialState: () => initial,
    subscribe: (listener) => (signal.aborted ? () => {} : state.subscribe(listener)),
    observe: reporter.observe,
    emit: reporter.emit,
    login(email, password) {
      const door: Door = { via: 'login' };
      // Only a sign-in door answers a step: a login's answer is read as a pair.
      const login = (signal: AbortSignal) => transport.login(email, password, signal);
      return enter(door, 'loginWithEmailPassword', login) as Promise<{ user: TokenUser }>;
    },
    signIn(name, variables = {}) {
      const door: Door = { via: 'signIn', door: name };
      const closed = findDoor(transport, door);
      if (closed) return Promise.reject(fail(door, closed));
      return enter(door, name, (signal) => transport.signIn!(name, variables, signal));
    },
    async adopt(pair, user) {
      const door: Door = { via: 'adopt' };
      let next: SessionRecord;
      try {
        const closed = findDoor(transport, door);
        if (closed) throw closed;
        next = recordOf(readAdoptedPair(pair), user);
      } catch (error) {
        throw fail(door, error);
      }
      // Handed over twice: the session has it already, and revoking the "replaced" pair would end it.
      if (live?.pair.refreshToken === next.pair.refreshToken) return { user: live.user };
      const begun = await begin(next, door);
      if (live !== next || !isDead(next, clock.now())) return begun;
      // A dead access token is renewed now, once, so that the app learns whether the pair was good.
      await refresher.renew(next, 'adopt');
      return { user: live.user };
    },
    logout() {
      // A second call joins the first, unless a session started since: that one is ended too.
      if (loggingOut && !live && !restorer.reading) return loggingOut;
      const logout = endAndRevoke().finally(() => {
        if (loggingOut === logout) loggingOut = null;
      });
      return (loggingOut = logout);
    },
    async refresh(trigger = 'manual') {
      // Started before this returns, when there is nothing to read: operations that follow join it.
      const reading = restorer.read();
      if (reading) await reading;
      if (!live) throw new SessionEndedError('no-session');
      // The app asked: a wait for the floor or a scheduled retry ends now.
      waits.wakeSleepers();
      await refresher.renew(live, trigger);
    },
    getAccessToken: async () => (await current())?.pair.accessToken ?? null,
    current,
    async recover(sent) {
      const now = await liveFor(sent);
      if (!now) throw new SessionEndedError('no-session');
      if (now.pair.accessToken !== sent?.pair.accessToken) return now;
      // Refused by the service: operations that start before the refresh settles wait for it, not bounce.
      now.refused = true;
      return refresher.renew(now, 'token-expired', sent.since);
    },
    async check(sent, failure) {
      const now = await liveFor(sent);
      if (!now || !sent) return false;
      // Renewed since it was sent: replayed with the current pair, as after TOKEN_EXPIRED.
      if (now.pair.accessToken !== sent.pair.accessToken) return true;
      const key = checks.worth(failure, sent.pair, clock.now());
      if (!key) return false;
      try {
        checks.brought((await refresher.renew(now, 'check')).pair, key);
        return true;
      } catch (error) {
        if (SessionEndedError.is(error)) throw error;
        // No verdict (the service could not be reached): the operation's own failure is what the app sees.
        return false;
      }
    },
    dispose() {
      let sent = live?.sent && live.refreshing;
      if (sent && !mode.refreshOutlivesDispose) {
        sent = undefined;
        void seam.save(null);
      }
      parts.abort.abort(new AuthRequestError('The session was disposed.', 'dispose'));
      void restorer.stop();
      waits.releaseAll();
      refresher.schedule(null);
      state.clear();
      const stop = () => stops.splice(0).forEach((each) => each?.());
      if (sent) void sent.finally(stop);
      else stop();
    },
  };

  // Asks the service for a pair through `door`, then begins its session; a door's answer without a pair is its
  // next step, which changes nothing.
  async function enter(door: Door, operation: string, run: (signal: AbortSignal) => Promise<SignInAnswer>) {
    if (mode.loginWaitsForLogout) await loggingOut?.catch(() => {});
    let next: SessionRecord;
    try {
      const answer = await calls.call(operation, run);
      if (door.via === 'signIn' && answer && 'next' in answer) return stepped(door, answer.next);
      const pair = readTokenPair(answer, operation, clock.now(), keptRefreshToken(mode, answer));
      next = recordOf(pair, (answer as TransportAnswer).user);
    } catch (error) {
      throw fail(door, error);
    }
    return begin(next, door);
  }

  // The one way a session begins, whatever door it came through: a read of the stored pair stops (that pair is the
  // replaced session's), the floor starts afresh, the session switches, the replaced session's newest pair is
  // revoked, and the pair is saved while it is still the session's (a logout, or a newer pair followed, wins).
  async function begin(next: SessionRecord, door: Door): Promise<{ user: TokenUser }> {
    const replaced = live;
    const reading = restorer.stop();
    refresher.restart();
    switchTo(next, { here: true });
    reporter.emit({ type: 'login', ...door, user: next.user });
    if (mode.revokesLeftPairs) void revokeNewest(replaced, reading);
    await seam.save(next.pair, () => live?.pair === next.pair);
    return { user: next.user };
  }

  // The record of a pair a door brought. The same user signing in again continues the epoch: operations waiting
  // on a refresh replay with this pair.
  function recordOf(pair: TokenPair, user: unknown): SessionRecord {
    const next = record(pair, {}, user as Partial<TokenUser> | undefined);
    return live?.user.id && live.user.id === next.user.id ? { ...next, epoch: live.epoch } : next;
  }

  // A door that failed leaves the session as it was, and shows the failure in the state.
  function fail(door: Door, error: unknown): unknown {
    reporter.emit({ type: 'login', ...door, error });
    state.publish({ ...state.get(), error: error as Error });
    return error;
  }

  // A step that begins no session (a code sent, a second factor asked for): the last failure is behind the user.
  function stepped(door: Door, next: unknown): { next: unknown } {
    reporter.emit({ type: 'login', ...door, next: true });
    const { error, ...shown } = state.get();
    if (error) state.publish(shown);
    return { next };
  }

  // The live record an operation sent with `sent` is answered in; fails when its epoch is over.
  async function liveFor(sent: SentToken | undefined): Promise<SessionRecord | null> {
    await restorer.reading?.catch(() => null);
    if (sent && sent.epoch !== live?.epoch) throw sent.epoch.ended ?? new SessionEndedError('no-session');
    return live;
  }

  async function endAndRevoke(): Promise<void> {
    // A second logout() joins this one from now on, even while the stored pair is still being read.
    const reading = restorer.stop();
    const ending = live;
    end({ reason: 'logout' });
    // Claimed before anything is awaited, so that a refresh settling meanwhile leaves its pair to this logout.
    const revoked = revokeNewest(ending, reading);
    await seam.save(null);
    await revoked;
  }

  // Revokes the newest pair of a session that was logged out or replaced: once its refresh in flight (if any)
  // has settled, the pair that refresh brought, else the one it had; with no live session, the stored pair a
  // restore is still reading. Nothing else revokes that epoch's pairs.
  function revokeNewest(old: SessionRecord | null, reading?: Promise<TokenPair | null>): Promise<unknown> | undefined {
    // A login's own pair, written before the read answered, is not the old session's.
    if (!old) {
      return reading?.then((pair) =>
        pair && pair.refreshToken !== live?.pair.refreshToken ? calls.revoke(pair) : undefined,
      );
    }
    old.revoking = true;
    return Promise.resolve(old.refreshing).then(() => calls.revoke(old.next ?? old.pair));
  }

  function restore(pair: TokenPair | null): void {
    if (!pair) return state.publish(SIGNED_OUT);
    const restored = record(pair, started);
    if (!isDead(restored, clock.now())) return switchTo(restored);
    // A dead access token: `loading` until the refresh says whether the session is still good.
    live = restored;
    refresher.renew(restored, 'restore').catch(() => {});
  }

  // A session sharing the store stored `pair` (or emptied it). A pair of the same user continues the epoch, so
  // operations waiting on this session's refresh take it; a login as someone else ends the epoch.
  function follow(pair: TokenPair | null, reason: 'rejected' | 'logout' = 'logout'): void {
    if (signal.aborted || (live ? isSamePair(live.pair, pair) : !pair && !restorer.reading)) return;
    if (!pair) return end({ reason, elsewhere: reason === 'logout' });
    const next = record(timeSeenPair(pair, clock.now(), config), live ?? {});
    switchTo(next);
    reporter.emit({ type: 'followed', user: next.user });
  }

  // Makes `next` the live session; one of another epoch ends the current one as replaced, by a login `here` or
  // elsewhere. A session that starts from none (a login, here or followed) leaves the last end behind.
  function switchTo(next: SessionRecord, { here = false } = {}): void {
    if (live && live.epoch !== next.epoch) return end({ reason: 'replaced', next, elsewhere: !here });
    if (!live) state.remember(undefined);
    activate(next);
  }

  function activate(next: SessionRecord): void {
    checkUserId(next);
    epoch = next.epoch;
    live = next;
    // Operations waiting on the refresh of the pair this one replaces (queued for a lock, sleeping out a floor or
    // a retry) go out with this one now. A record is activated once, so none waits on `next` yet.
    waits.releaseAll();
    refresher.schedule(next);
    state.publish(stateOf(next));
  }

  // Ends the current epoch; `next` takes over at once when a login replaced it. Every wait ends with it: an
  // operation waiting on the ended session's refresh fails now, not when that refresh settles.
  function end(ending: Ending): void {
    const outcome = describeEnd(live, ending, clock.now());
    epoch.ended = outcome.error;
    epoch = {};
    live = null;
    refresher.schedule(null);
    waits.releaseAll();
    if (outcome.remember) state.remember(outcome.remember.ended);
    if (ending.next) activate(ending.next);
    else state.publish(outcome.signedOut);
    if (!outcome.event) return;
    reporter.emit({ type: 'end', ...outcome.event });
    reporter.tell(config.onSessionEnd, outcome.event);
  }

  function record(pair: TokenPair, into: Epoch | SessionRecord, known?: Partial<TokenUser>): SessionRecord {
    return createRecord({ pair, into, known }, config);
  }
}
