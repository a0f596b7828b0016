import { type ApolloClient, ApolloLink, gql } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import type { Subscription } from 'rxjs';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  SessionEndedError,
  shareTokenStore,
  type TokenAuth,
  type TokenPair,
  createTokenStore,
} from '../../src';
import { getRetryDelay } from '../../src/core/session/getRetryDelay';
import { TIME } from '../helpers/session';
import { FakeClock } from './FakeClock';
import type { Invariant, KnownBug, Trigger } from './knownBugs';
import { type Schedule, describeStep } from './schedule';
import { createSpecServerModel, MODEL_USERS, ModelTransportError, readClaims } from './specServerModel';

const { T0, MINUTE } = TIME;

/** A small deterministic generator (mulberry32) seeded with a string's hash: numbers in [0, 1). */
function seededRandom(seed: string): () => number {
  let state = [...seed].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16_777_619), 2_166_136_261);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const URI = 'http://model.test/graphql';
const PING = gql`
  query Ping($op: Int) {
    ping(n: $op)
  }
`;
// How much time the drain lets pass for operations that wait on a timer: the floor, a retry due within 10 s.
const DRAIN_TIME = 30_000;
// The session's default floor between two refreshes.
const REFRESH_FLOOR = 5_000;
// Upper bounds that only a runaway loop reaches.
const MAX_TIMERS_PER_STEP = 2_000;
const MAX_DRAIN_ROUNDS = 1_000;

/** Counters summed over every schedule a property runs, printed at the end and quoted in docs/reliability.md. */
export function createTotals() {
  return {
    schedules: 0,
    steps: 0,
    instances: 0,
    operations: 0,
    attempts: 0,
    replays: 0,
    operationsSucceeded: 0,
    operationsErrored: 0,
    operationsCancelled: 0,
    logins: 0,
    logoutCalls: 0,
    logoutsWithRefreshInFlight: 0,
    refreshReceived: 0,
    rotations: 0,
    lostResponses: 0,
    timedOutRequests: 0,
    networkFailures: 0,
    http502: 0,
    revocations: 0,
    reuseDetections: 0,
    sessionsEndedRejected: 0,
    timersFiredLate: 0,
    violations: 0,
    /** Schedules in which the trigger of a known bug occurred, by trigger. */
    triggered: {} as Record<string, number>,
    /** Violations tolerated as symptoms of a known bug, by invariant. */
    tolerated: {} as Record<string, number>,
  };
}
export type Totals = ReturnType<typeof createTotals>;

interface OperationRecord {
  readonly id: number;
  readonly instance: number;
  readonly tokens: Array<string | undefined>;
  subscription?: Subscription;
  settled: 'data' | 'error' | 'cancelled' | null;
}

interface Client {
  readonly auth: TokenAuth;
  readonly link: ApolloLink;
  leftLoading: boolean;
  rejectedEnds: number;
}

/** What a broken invariant throws: every violation found, with the step where it showed. */
export class ScheduleViolation extends Error {
  override name = 'ScheduleViolation';
}

/** Options of {@link runSchedule}. */
export interface RunOptions {
  /** Where the counters go. */
  readonly totals?: Totals;
  /** Receives a line per step, request and state change: for replaying one schedule by hand. */
  readonly trace?: (line: string) => void;
  /** Known bugs whose symptoms are tolerated in schedules where their trigger occurred. */
  readonly tolerate?: readonly KnownBug[];
  /**
   * Whether the instances share the store through `shareTokenStore`; it is the only way several may.
   * @defaultValue `true` when there is more than one instance
   */
  readonly shared?: boolean;
}

// Lets every promise chain the last step started run to its end: nothing in a run waits for a real timer.
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `schedule` against the real `createTokenAuth` (session and `auth.link`) and the spec server model, and
 * throws a {@link ScheduleViolation} naming every invariant it broke.
 *
 * @remarks
 * The invariants ({@link Invariant}), checked after every step, again once the schedule is drained (every
 * pending request answered `ok`, and up to 30 s of timers fired while something still waits), and after
 * `dispose()`:
 *
 * - `settles`: every operation settles exactly once (data, error or unsubscribed); every `login`/`logout`/
 *   `refresh` call settles.
 * - `typed-errors`: operations fail with `SessionEndedError`, `AuthRequestError` or the transport's own error;
 *   `onError` gets only `AuthRequestError`/`AuthRejectedError`.
 * - `replays-once`: no operation reaches the server more than twice, none after it was unsubscribed, and a
 *   replay never carries the token whose `TOKEN_EXPIRED` caused it.
 * - `single-use`: the service never receives a refresh token twice, unless an earlier submission's answer was
 *   lost (dropped after the rotation, or abandoned on `refreshTimeout`): the client cannot tell that from a
 *   request that never arrived. `single-use-refused`: a token the service refused is never sent again.
 * - `rejected-only-when-rejected`: a session ends as `rejected` only after the service refused a refresh of one
 *   of the sessions on its store; network failures, 502s and timeouts never end one.
 * - `logout-is-final`: a `logout()` on any instance (they share the store) ends the session it knew: the
 *   service's family (`sid`) of that instance's pair and of the stored pair at that moment. From then on no
 *   operation carries a token of those families, and once quiet nobody is `authenticated` on one and the store
 *   holds none. A login elsewhere that the logout did not know of (its pair not stored yet) starts a new
 *   family, which the logout does not end.
 * - `state-and-store-agree`, whenever nothing is pending. With several instances on one store, "agree" means:
 *   each instance is `authenticated` exactly when the store holds a pair, and then its user's claims are those
 *   of the stored access token (so every instance sends the stored token); nobody is still `loading`.
 * - `consistent-states`: `authenticated` always with a user whose id is the token's `sub`, `loading` and
 *   `unauthenticated` with none, never `loading` again once left.
 * - `dispose-leaves-nothing`: no timer armed on the clock, no store listener left.
 * - `no-unhandled-rejection`.
 * - `refresh-floor`: an instance's refreshes never outrun a bucket of two that refills at one per 5 s (two may
 *   go together, after a quiet spell: a `TOKEN_EXPIRED` right after a rotation; a storm gets one per 5 s),
 *   unless a login or its app's `refresh()` came in between.
 *
 * A violation that is a symptom of a bug in `options.tolerate`, in a schedule where that bug's trigger
 * occurred, is counted in `totals.tolerated` instead.
 */
export async function runSchedule(schedule: Schedule, options: RunOptions = {}): Promise<void> {
  const { totals = createTotals(), trace = () => {}, tolerate = [], shared = schedule.instances > 1 } = options;
  const clock = new FakeClock(T0);
  const model = createSpecServerModel({ clock, skewMs: schedule.skewMs, expiredAs: schedule.expiredAs });
  const initial =
    schedule.initial === 'empty' ? null : model.issuePair(0, schedule.initial === 'dead' ? 20 * MINUTE : 0);
  const memory = createMemoryTokenStore(initial);
  let storeListeners = 0;
  const plain = createTokenStore({
    get: memory.get,
    set: (pair) => {
      trace(`  store <- ${String(readClaims(pair.accessToken)?.jti)}`);
      memory.set(schedule.dropsReceivedAt ? { accessToken: pair.accessToken, refreshToken: pair.refreshToken } : pair);
    },
    clear: () => {
      trace('  store <- empty');
      memory.clear();
    },
    subscribe(listener) {
      storeListeners++;
      const off = memory.subscribe!(listener);
      let active = true;
      return () => {
        if (active) storeListeners--;
        active = false;
        off();
      };
    },
  });

  // Instances share the store the only way they may: through shareTokenStore, one lock between them.
  const store = shared ? shareTokenStore(plain) : plain;
  const violations: string[] = [];
  let where = 'start';
  // The triggers of known bugs that have occurred in this schedule.
  const triggered = new Set<Trigger>();
  const fail = (invariant: Invariant, message: string) => {
    const excused = tolerate.some((bug) => triggered.has(bug.trigger) && bug.symptoms.includes(invariant));
    if (excused) totals.tolerated[invariant] = (totals.tolerated[invariant] ?? 0) + 1;
    else violations.push(`${where}: [${invariant}] ${message}`);
  };
  const trigger = (event: Trigger) => {
    if (!triggered.has(event)) totals.triggered[event] = (totals.triggered[event] ?? 0) + 1;
    triggered.add(event);
  };
  const refreshOut = () => model.pending.some((request) => request.kind === 'refreshToken' && !request.abandoned);
  const unhandled = (reason: unknown) => fail('no-unhandled-rejection', `unhandled rejection: ${String(reason)}`);
  process.on('unhandledRejection', unhandled);

  const operations: OperationRecord[] = [];
  const calls: Array<{ what: string; settled: boolean }> = [];
  // The families (`sid`) that logout steps ended.
  const loggedOut = new Set<string>();
  const sidOf = (token: string | undefined) => (token ? String(readClaims(token)?.sid ?? '') : '');

  // The session's jittered retries, from a generator seeded by the schedule itself: a seed replays exactly.
  const random = seededRandom(JSON.stringify(schedule));
  // `refresh-floor`: per instance, when its last refresh request went out and the bucket's level then, and
  // whether a login or the app's refresh() (which may start one sooner) came since.
  const lastRefreshSent: Array<{ at: number; level: number } | undefined> = [];
  const cutShort: boolean[] = [];
  const floorWatch =
    (instance: number, fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    (url, init) => {
      if (String(init?.body).includes('refreshToken(')) {
        const last = lastRefreshSent[instance];
        const level =
          !last || cutShort[instance] ? 2 : Math.min(2, last.level + (clock.now() - last.at) / REFRESH_FLOOR);
        // A thousandth of slack for the floating point of the refill.
        if (level < 0.999)
          fail(
            'refresh-floor',
            `instance ${instance} sent a refresh ${clock.now() - last!.at} ms after its last one, with the floor's bucket at ${level.toFixed(2)}`,
          );
        lastRefreshSent[instance] = { at: clock.now(), level: Math.max(0, level - 1) };
        cutShort[instance] = false;
      }
      return fetch(url, init);
    };
  const clients: Client[] = Array.from({ length: schedule.instances }, (_, instance) => {
    const auth = createTokenAuth({
      uri: URI,
      store,
      clock,
      retryDelay: (attempt) => getRetryDelay(attempt, random),
      fetch: floorWatch(instance, model.fetchFor(instance)),
      refreshOnResume: false,
      onSessionEnd: (event) => {
        if (event.reason !== 'rejected') return;
        totals.sessionsEndedRejected++;
        client.rejectedEnds++;
        // The refusal may have reached a session sharing the store: the one that sent the refused token ends the
        // session of every session on that store, and each reports the same reason (issue 10, item 11).
        const refusals = model.rejectionsDelivered.reduce((sum, count) => sum + count, 0);
        if (client.rejectedEnds > refusals) {
          fail(
            'rejected-only-when-rejected',
            `instance ${instance} ended its session as rejected, but the service rejected no refresh of the store's sessions`,
          );
        }
      },
      onError: (error) => {
        if (!AuthRequestError.is(error) && !AuthRejectedError.is(error))
          fail('typed-errors', `onError got an untyped error: ${String(error)}`);
      },
    });
    const client: Client = {
      auth,
      link: ApolloLink.from([auth.link, model.linkFor(instance)]),
      leftLoading: false,
      rejectedEnds: 0,
    };
    auth.subscribe(() => {
      trace(`  instance ${instance} -> ${auth.getState().status} ${String(auth.getState().user?.claims.jti ?? '')}`);
      checkState(instance);
    });
    return client;
  });

  function checkState(instance: number) {
    const client = clients[instance]!;
    const { status, user } = client.auth.getState();
    if (status === 'loading') {
      if (client.leftLoading) fail('consistent-states', `instance ${instance} went back to loading`);
    } else client.leftLoading = true;
    if (status === 'authenticated') {
      if (user === null) fail('consistent-states', `instance ${instance} is authenticated with user null`);
      else if (user.id !== user.claims.sub)
        fail(
          'consistent-states',
          `instance ${instance} shows user ${user.id} but sends a token of ${String(user.claims.sub)}`,
        );
    } else if (user !== null) fail('consistent-states', `instance ${instance} is ${status} with a user`);
  }

  model.onLoginDelivered = () => {
    if (refreshOut()) trigger('session-change-during-refresh');
  };
  model.onRefreshRefused = () => {
    if (clients.length > 1) trigger('refusal-with-peers');
  };
  model.onAttempt = ({ op, instance, token }) => {
    trace(`  op ${op}@${instance} sent with ${token ? String(readClaims(token)?.jti) : 'no token'}`);
    totals.attempts++;
    const record = operations[op]!;
    record.tokens.push(token);
    if (record.tokens.length === 2) totals.replays++;
    if (record.tokens.length > 2) fail('replays-once', `op ${op} reached the server ${record.tokens.length} times`);
    if (record.settled === 'cancelled') fail('replays-once', `op ${op} reached the server after it was unsubscribed`);
    if (record.tokens.length === 2 && token !== undefined && token === record.tokens[0]) {
      fail('replays-once', `op ${op} was replayed with the token that had expired`);
    }
    if (loggedOut.has(sidOf(token)))
      fail('logout-is-final', `op ${op}@${instance} carried a token of a session logged out`);
  };

  function settle(record: OperationRecord, how: 'data' | 'error' | 'cancelled', error?: unknown) {
    if (record.settled) fail('settles', `op ${record.id} settled twice (${record.settled}, then ${how})`);
    record.settled = how;
    if (how === 'data') totals.operationsSucceeded++;
    if (how === 'error') {
      totals.operationsErrored++;
      if (
        !SessionEndedError.is(error) &&
        !AuthRequestError.is(error) &&
        !ServerError.is(error) &&
        !(error instanceof ModelTransportError)
      ) {
        fail('typed-errors', `op ${record.id} failed with an untyped error: ${String(error)}`);
      }
    }
    if (how === 'cancelled') totals.operationsCancelled++;
  }

  function startOperation(instance: number) {
    totals.operations++;
    const record: OperationRecord = { id: operations.length, instance, tokens: [], settled: null };
    operations.push(record);
    record.subscription = ApolloLink.execute(
      clients[instance]!.link,
      { query: PING, variables: { op: record.id } },
      { client: {} as ApolloClient },
    ).subscribe({
      error: (error: unknown) => settle(record, 'error', error),
      complete: () => settle(record, 'data'),
    });
  }

  function track(what: string, promise: Promise<unknown>) {
    const call = { what, settled: false };
    calls.push(call);
    promise.then(
      () => (call.settled = true),
      () => (call.settled = true),
    );
  }

  // Fires the timers due by `until` in order. With `stopOnRequest`, stops at the first one that puts a new
  // request on the network and returns false: time stops there, and the schedule decides what the network does.
  async function fireUntil(until: number, stopOnRequest = false): Promise<boolean> {
    for (let fired = 0; ; fired++) {
      const out = model.pending.length;
      if (!clock.fireNext(until)) return true;
      if (fired > MAX_TIMERS_PER_STEP) {
        fail('settles', 'timers keep firing: a loop');
        return true;
      }
      await flush();
      if (stopOnRequest && model.pending.length > out) return false;
    }
  }

  function checkQuiet() {
    const stored = (memory.get() as TokenPair | null) ?? null;
    if (stored && loggedOut.has(sidOf(stored.accessToken)))
      fail('logout-is-final', 'the store holds a pair of a session logged out');
    const storedJti = stored ? readClaims(stored.accessToken)?.jti : undefined;
    clients.forEach(({ auth }, instance) => {
      const { status, user } = auth.getState();
      if (status === 'authenticated' && loggedOut.has(String(user?.claims.sid ?? ''))) {
        fail('logout-is-final', `instance ${instance} is authenticated on a session logged out`);
      }
      if (status === 'loading')
        fail('state-and-store-agree', `instance ${instance} is still loading with nothing pending`);
      else if (stored && status !== 'authenticated')
        fail('state-and-store-agree', `the store holds a pair but instance ${instance} is ${status}`);
      else if (!stored && status === 'authenticated')
        fail('state-and-store-agree', `instance ${instance} is authenticated but the store is empty`);
      else if (stored && user && user.claims.jti !== storedJti) {
        fail(
          'state-and-store-agree',
          `instance ${instance} sends ${String(user.claims.jti)} but the store holds ${String(storedJti)}`,
        );
      }
    });
  }

  function checkStep() {
    for (const resubmission of model.resubmissions.splice(0)) {
      if (resubmission.afterLostResponse) continue;
      if (resubmission.afterRejection) {
        fail(
          'single-use-refused',
          `refresh token ${resubmission.token} reached the service again after the service had refused it`,
        );
      } else
        fail('single-use', `refresh token ${resubmission.token} reached the service ${resubmission.receptions} times`);
    }
    if (model.pending.length === 0) checkQuiet();
    if (violations.length > 0) throw new ScheduleViolation(violations.join('\n'));
  }

  try {
    await flush();
    clients.forEach((_, instance) => checkState(instance));
    checkStep();
    for (const [index, step] of schedule.steps.entries()) {
      where = `step ${index} (${describeStep(step)})`;
      trace(
        `${where}, pending: ${model.pending.map((r) => `${r.kind}@${r.instance}${r.abandoned ? '(abandoned)' : ''}`).join(', ')}`,
      );
      totals.steps++;
      switch (step.kind) {
        case 'op':
          startOperation(step.instance % clients.length);
          break;
        case 'deliver':
          if (model.pending.length > 0) {
            const request = model.deliver(step.pick % model.pending.length, step.outcome);
            trace(
              `  delivered ${request.kind} of instance ${request.instance} ${request.refreshToken ?? request.op ?? ''}${request.abandoned ? ' (abandoned)' : ''}`,
            );
          }
          break;
        case 'advance': {
          const until = clock.now() + step.ms;
          if (await fireUntil(until, true)) clock.jump(until - clock.now());
          break;
        }
        case 'jump':
          clock.jump(step.ms);
          break;
        case 'fire': {
          const before = clock.pending;
          await fireUntil(clock.now());
          totals.timersFiredLate += Math.max(0, before - clock.pending);
          break;
        }
        case 'login': {
          totals.logins++;
          if (refreshOut()) trigger('session-change-during-refresh');
          const user = MODEL_USERS[step.user]!;
          const login = clients[step.instance % clients.length]!.auth.login(user.email, user.password);
          // A login starts a new session, and so a new floor, once it has signed in.
          login.then(
            () => void (cutShort[step.instance % clients.length] = true),
            () => {},
          );
          track(where, login);
          break;
        }
        case 'logout':
          totals.logoutCalls++;
          if (refreshOut()) {
            totals.logoutsWithRefreshInFlight++;
            trigger('session-change-during-refresh');
          }
          {
            const stored = (memory.get() as TokenPair | null) ?? null;
            const known = clients[step.instance % clients.length]!.auth.getState().user?.claims.sid;
            for (const sid of [stored && sidOf(stored.accessToken), known]) if (sid) loggedOut.add(String(sid));
          }
          track(where, clients[step.instance % clients.length]!.auth.logout());
          break;
        case 'refresh':
          cutShort[step.instance % clients.length] = true;
          track(where, clients[step.instance % clients.length]!.auth.refresh());
          break;
        case 'cancel': {
          const live = operations.filter((record) => !record.settled);
          const record = live[step.pick % Math.max(1, live.length)];
          if (record) {
            record.subscription!.unsubscribe();
            settle(record, 'cancelled');
          }
          break;
        }
        case 'expireAll':
          model.expireAllAccessTokens();
          break;
        case 'revokeAll':
          model.revokeAllSessions();
          break;
      }
      await flush();
      checkStep();
    }

    where = 'drain';
    // Time goes on while the network is drained: an operation may wait for the floor or a retry due soon, so
    // the timers due within DRAIN_TIME fire whenever nothing is in flight and something still waits.
    const quietBy = clock.now() + DRAIN_TIME;
    for (let round = 0; ; round++) {
      if (round > MAX_DRAIN_ROUNDS) {
        fail('settles', 'the network never went quiet');
        break;
      }
      if (model.pending.length > 0) {
        const request = model.deliver(0, 'ok');
        trace(
          `  drain delivered ${request.kind} of instance ${request.instance} ${request.refreshToken ?? request.op ?? ''}`,
        );
      } else if (!operations.some((record) => !record.settled) && !calls.some((call) => !call.settled)) break;
      else if (!clock.fireNext(quietBy)) break;
      else trace(`  drain fired a timer at ${clock.now() - T0} ms`);
      await flush();
    }
    await flush();
    for (const record of operations)
      if (!record.settled) fail('settles', `op ${record.id}@${record.instance} never settled`);
    for (const call of calls) if (!call.settled) fail('settles', `the call of ${call.what} never settled`);
    checkStep();

    where = 'dispose';
    for (const { auth } of clients) auth.dispose();
    await flush();
    if (clock.pending > 0) fail('dispose-leaves-nothing', `${clock.pending} timer(s) still armed after dispose()`);
    if (storeListeners > 0) fail('dispose-leaves-nothing', `${storeListeners} store listener(s) left after dispose()`);
    checkStep();
  } catch (error) {
    if (error instanceof ScheduleViolation) totals.violations++;
    throw error;
  } finally {
    process.off('unhandledRejection', unhandled);
    for (const { auth } of clients) auth.dispose();
    for (const record of operations) record.subscription?.unsubscribe();
    totals.schedules++;
    totals.instances += clients.length;
    const { stats } = model;
    totals.refreshReceived += stats.refreshReceived;
    totals.rotations += stats.rotations;
    totals.lostResponses += stats.lostResponses;
    totals.timedOutRequests += stats.timedOutRequests;
    totals.networkFailures += stats.networkFailures;
    totals.http502 += stats.http502;
    totals.revocations += stats.revocations;
    totals.reuseDetections += stats.reuseDetections;
  }
}
