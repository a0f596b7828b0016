import type { Rotation } from '../stores/openStore';
import type { TokenPair } from '../tokens/TokenPair';
import { SessionEndedError } from '../errors/SessionEndedError';
import { isSamePair, readTokenPair } from '../tokens/readTokenPair';
import { createRefreshTimer } from './RefreshTimer';
import { getRefreshFloor, NO_REFRESH, spendFloor, type FloorState } from './getRefreshFloor';
import { isUncertainRefusal, judgeRefreshFailure } from './judgeRefreshFailure';
import { afterJoin, beforeJoin } from './operationWait';
import type { RefresherHost } from './RefresherHost';
import { REFRESH_TRIGGERS, type RefreshTrigger } from './refreshTriggers';
import { createRecord, stateOf, timeSeenPair, type SentToken, type SessionRecord } from './SessionRecord';
import { getOperationWait } from './sessionLimits';
import { keptRefreshToken } from './sessionMode';
import type { RefreshEvent } from './TokenAuthOptions';

/** The refreshes of one session: single flight per record, the floor, retries and the proactive timer. */
export interface Refresher {
  /**
   * Joins the refresh of `from` (or starts it) and resolves its successor in the same epoch; for an operation,
   * what it goes out with, its wait counted from `since`.
   */
  renew(from: SessionRecord, trigger: RefreshTrigger, since?: number): Promise<SentToken>;
  /** Arms the proactive timer for a record that just became live, or stops it (none, or disposed). */
  schedule(record: SessionRecord | null): void;
  /** The app came back to the foreground or online: a refresh or retry that came due meanwhile goes now. */
  resumed(): void;
  /**
   * A token was read (an operation, `getAccessToken()`): a proactive refresh or a retry that fell due while the
   * timer did not fire (a hidden tab's throttled timers, a machine asleep) starts now, in the background.
   */
  overdue(): void;
  /** A login: the floor starts afresh. */
  restart(): void;
}

/** Creates the {@link Refresher} of a session. See {@link RefresherHost}. */
export function createRefresher(host: RefresherHost): Refresher {
  const { config, seam, mode, waits, calls, reporter, state, signal } = host;
  const { clock } = config;
  const operationWait = getOperationWait(seam.lockWait);
  const timer = createRefreshTimer(clock, () => background(host.live()?.retry ? 'retry' : 'proactive'));
  // When this session last sent a refresh, and the credit the floor has left.
  let floorState: FloorState = NO_REFRESH;

  // Whatever it joins, an operation's wait ends by `operationWait` after `since`: a pair followed meanwhile may be
  // refused too, and the refresh of its replay can queue for a lock that a frozen tab holds.
  async function renew(from: SessionRecord, trigger: RefreshTrigger, since = clock.now()): Promise<SentToken> {
    const kind = REFRESH_TRIGGERS[trigger];
    let patient = kind.operation;
    for (;;) {
      const before = beforeJoin({ kind, from, patient, since });
      if (before.do === 'fail') throw before.error;
      if (before.do === 'sleep') {
        patient = false;
        await waits.sleep(before.until - clock.now());
      }
      if (host.live() === from) {
        from.refreshing ??= rotate(from, trigger).finally(() => {
          from.refreshing = undefined;
        });
      }
      await waits.join(from.refreshing, kind.operation ? since + operationWait - clock.now() : undefined);
      const disposed: unknown = signal.aborted ? signal.reason : undefined;
      const step = afterJoin({ from, live: host.live(), patient, disposed, operationWait });
      if (step.do === 'again') continue;
      if (step.do === 'take')
        return kind.operation ? { epoch: step.record.epoch, pair: step.record.pair, since } : step.record;
      throw step.error;
    }
  }

  // Settles once the rotation is applied, whatever it came to: waiters then read the state.
  async function rotate(from: SessionRecord, trigger: RefreshTrigger): Promise<void> {
    const wanted = () => host.live() === from;
    const asked = clock.now();
    const notify = (outcome: RefreshEvent['outcome'], error?: unknown) => {
      const event: RefreshEvent = { trigger, outcome, error };
      reporter.emit({ type: 'refresh', ms: clock.now() - asked, ...event });
      reporter.tell(config.onRefresh, event);
    };
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
      if (isUncertainRefusal(error)) from.refusals = (from.refusals ?? 0) + 1;
      const verdict = judgeRefreshFailure(error, {
        refusals: from.refusals ?? 0,
        pair: from.pair,
        restoring: trigger === 'restore',
      });
      if (verdict.retry) {
        retryLater(from, error as Error);
        if (REFRESH_TRIGGERS[trigger].background) reporter.report(error);
        return notify('failed', error);
      }
      // This session's own logout never gets here: a `logout` answer is one made elsewhere.
      host.end({ reason: verdict.reason, cause: verdict.cause, elsewhere: verdict.reason === 'logout' });
      // A restore that found nobody signed in ended nothing.
      return notify(verdict.reason === 'no-session' ? 'no-session' : 'rejected', error);
    }
    notify(apply(from, rotation) ?? 'superseded');
  }

  // Applies a rotation's outcome to the session, in one place; says what it came to, `undefined` when superseded.
  function apply(from: SessionRecord, rotation: Rotation): RefreshEvent['outcome'] | undefined {
    const wanted = host.live() === from;
    const { orphan } = rotation;
    // An adopted pair is this session's newest too: a logout revokes it, not the spent one. Once this session is
    // being revoked (logged out, or replaced by a login), a pair in the store is a newer session's: not its own.
    const pair = rotation.adopted ? timeSeenPair(rotation.pair!, clock.now(), config) : rotation.pair;
    if (rotation.adopted && !from.revoking) from.next = pair!;
    if (orphan && !from.revoking && mode.revokesLeftPairs) void calls.revoke(orphan);
    // Followed already: the store told of the pair before this answer came.
    const applied = isSamePair(pair, host.live()?.pair);
    if (!pair) {
      if (wanted) host.end({ reason: rotation.reason ?? 'logout', elsewhere: !rotation.reason });
      return undefined;
    }
    if (!applied && !wanted) return undefined;
    if (!applied) host.switchTo(createRecord({ pair, into: from }, config));
    return rotation.adopted ? 'adopted' : 'rotated';
  }

  // The refresh request itself; it runs under the store's lock when the store is shared.
  async function exchange(from: SessionRecord, pair: TokenPair): Promise<TokenPair> {
    floorState = spendFloor(clock.now(), config.refreshFloor, floorState);
    if (signal.aborted) throw signal.reason;
    from.sent = true;
    const answer = await calls.call('refreshToken', (signal) => config.transport.refresh(pair.refreshToken, signal), {
      outlivesDispose: mode.refreshOutlivesDispose,
    });
    try {
      return (from.next = readTokenPair(answer, 'refreshToken', clock.now(), keptRefreshToken(mode, answer, pair)));
    } catch (error) {
      // The service spent the old token and sent nothing usable: a refresh token it carried is revoked.
      const { accessToken, refreshToken } = answer ?? {};
      if (typeof refreshToken === 'string') {
        void calls.revoke({ accessToken: typeof accessToken === 'string' ? accessToken : '', refreshToken });
      }
      throw new SessionEndedError('rejected', error);
    }
  }

  // Sleeps until the floor lets a refresh of `from` go, showing the wait in the state.
  async function waitForFloor(from: SessionRecord, trigger: RefreshTrigger): Promise<void> {
    const now = clock.now();
    const at = getRefreshFloor({
      trigger,
      now,
      floor: config.refreshFloor,
      state: floorState,
      schedule: from.schedule,
    });
    if (!(at > now)) return;
    from.waiting = { at, trigger };
    reporter.emit({ type: 'floor', trigger, until: at });
    show(from);
    await waits.sleep(at - clock.now());
    from.waiting = undefined;
    show(from);
  }

  // Offline, the retry waits for the app to come back instead of failing on a timer; online, not before the floor.
  function retryLater(from: SessionRecord, error: Error): void {
    const attempt = (from.retry?.attempt ?? 0) + 1;
    const online = config.resume?.isOnline?.() !== false;
    const earliest = floorState.last + config.refreshFloor;
    const at = online ? Math.max(clock.now() + config.retryDelay(attempt), earliest) : undefined;
    from.retry = { at, error, attempt };
    reporter.emit({ type: 'retry', until: at, attempt, error });
    if (at === undefined || signal.aborted) timer.cancel();
    else timer.at(at);
    show(from);
  }

  // A record's retry or wait for the floor is shown while it is live.
  function show(record: SessionRecord): void {
    if (host.live() === record) state.publish(stateOf(record));
  }

  // Whether the proactive refresh of `live`, or its retry, is due and not out yet; `offlineRetryAt`: when a retry
  // with no time of its own (it waits for the network) is due: -Infinity (already) or Infinity (never).
  function isDue(live: SessionRecord | null, offlineRetryAt: number): boolean {
    if (!live || live.refreshing) return false;
    return clock.now() >= (live.retry ? (live.retry.at ?? offlineRetryAt) : (live.schedule?.refreshAt ?? Infinity));
  }

  function background(trigger: RefreshTrigger): void {
    const live = host.live();
    if (live) renew(live, trigger).catch(() => {});
  }

  return {
    renew,
    schedule(record) {
      if (record?.schedule && !signal.aborted) timer.at(record.schedule.refreshAt);
      else timer.cancel();
    },
    resumed() {
      // A retry waiting for the network to come back (no `at`) is due now.
      if (isDue(host.live(), -Infinity)) background('resume');
    },
    overdue() {
      const live = host.live();
      // Offline, a retry waits for the app to come back (resumed).
      if (isDue(live, Infinity)) background(live!.retry ? 'retry' : 'proactive');
    },
    restart() {
      floorState = NO_REFRESH;
    },
  };
}
