import { type ApolloClient, ApolloLink, gql } from '@apollo/client';
import type { Subscription } from 'rxjs';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  SessionEndedError,
  type TokenAuth,
  type TokenPair,
  type TokenStore,
} from '../../src';
import { FakeClock } from './FakeClock';
import { type Schedule, describeStep } from './schedule';
import { createSpecServerModel, MODEL_USERS, ModelTransportError, readClaims } from './specServerModel';
import { ServerError } from '@apollo/client/errors';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MINUTE = 60_000;
const URI = 'http://model.test/graphql';
const PING = gql`
  query Ping($op: Int) {
    ping(n: $op)
  }
`;
// Upper bounds that only a runaway loop reaches.
const MAX_TIMERS_PER_STEP = 2_000;
const MAX_DRAIN_ROUNDS = 1_000;

/** Counters summed over every schedule a property runs, printed at the end and quoted in RELIABILITY.md. */
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

// Lets every promise chain the last step started run to its end: nothing in a run waits for a real timer.
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `schedule` against the real `createTokenAuth` (session and `auth.link`) and the spec server model, and
 * throws a {@link ScheduleViolation} naming every invariant it broke.
 *
 * @remarks
 * The invariants, checked as the steps run and again once the schedule is drained (every pending request
 * answered `ok`):
 *
 * 1. Every operation settles exactly once (data, error or unsubscribed), and every `login`/`logout`/`refresh`
 *    call settles; errors are typed (`SessionEndedError`, `AuthRequestError`, or the transport's own).
 * 2. No operation reaches the server more than twice (one replay), none after it was unsubscribed, and a replay
 *    never carries the access token whose `TOKEN_EXPIRED` caused it.
 * 3. The service never receives a refresh token twice, unless an earlier submission's answer was lost (dropped
 *    after the rotation, or abandoned by the client on `refreshTimeout`): the client cannot tell that from a
 *    request that never arrived, and re-submitting is the only way to find out.
 * 4. A session ends as `rejected` only after the service rejected a refresh of that instance.
 * 5. After `logout()` (on any instance: they share the store) and until a later login answer arrives, no
 *    operation carries a token and no instance is `authenticated`: a late refresh cannot revive the session.
 * 6. Whenever the network is quiet (nothing pending), state and store agree. With several instances on one
 *    store, "agree" means: each instance is `authenticated` exactly when the store holds a pair, and then
 *    its user's claims are those of the stored access token (so it sends the stored token, the same as the
 *    others); after a logout the store is empty; nobody is still `loading`.
 * 7. Each instance publishes a consistent sequence: `authenticated` always with a user whose id is the token's
 *    `sub`, `loading` and `unauthenticated` with none, and never `loading` again once it left it.
 * 8. Callbacks get what the README promises: `onError` only `AuthRequestError`/`AuthRejectedError`; no
 *    unhandled rejection.
 * 9. After `dispose()`, no timer is armed on the clock and no store listener is left.
 */
export async function runSchedule(
  schedule: Schedule,
  totals: Totals = createTotals(),
  trace: (line: string) => void = () => {},
): Promise<void> {
  const clock = new FakeClock(T0);
  const model = createSpecServerModel({ clock, skewMs: schedule.skewMs, expiredAs: schedule.expiredAs });
  const initial = schedule.initial === 'empty' ? null : model.issuePair(0, schedule.initial === 'dead' ? 20 * MINUTE : 0);
  const memory = createMemoryTokenStore(initial);
  let storeListeners = 0;
  const store: TokenStore = {
    get: memory.get,
    set: memory.set,
    clear: memory.clear,
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
  };

  const violations: string[] = [];
  let where = 'start';
  const fail = (message: string) => violations.push(`${where}: ${message}`);
  const unhandled = (reason: unknown) => fail(`unhandled rejection: ${String(reason)}`);
  process.on('unhandledRejection', unhandled);

  const operations: OperationRecord[] = [];
  const calls: Array<{ what: string; settled: boolean }> = [];
  // Set by a logout step, cleared when a login answer reaches a client.
  let loggedOut = false;

  const clients: Client[] = Array.from({ length: schedule.instances }, (_, instance) => {
    const auth = createTokenAuth({
      uri: URI,
      store,
      clock,
      fetch: model.fetchFor(instance),
      refreshOnResume: false,
      onSessionEnd: (event) => {
        if (event.reason !== 'rejected') return;
        totals.sessionsEndedRejected++;
        client.rejectedEnds++;
        if (client.rejectedEnds > model.rejectionsDelivered[instance]!) {
          fail(`instance ${instance} ended its session as rejected, but the service rejected none of its refreshes`);
        }
      },
      onError: (error) => {
        if (!AuthRequestError.is(error) && !AuthRejectedError.is(error)) fail(`onError got an untyped error: ${String(error)}`);
      },
    });
    const client: Client = { auth, link: ApolloLink.from([auth.link, model.linkFor(instance)]), leftLoading: false, rejectedEnds: 0 };
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
      if (client.leftLoading) fail(`instance ${instance} went back to loading`);
    } else client.leftLoading = true;
    if (status === 'authenticated') {
      if (user === null) fail(`instance ${instance} is authenticated with user null`);
      else if (user.id !== user.claims.sub) fail(`instance ${instance} shows user ${user.id} but sends a token of ${String(user.claims.sub)}`);
    } else if (user !== null) fail(`instance ${instance} is ${status} with a user`);
  }

  model.onLoginDelivered = () => {
    loggedOut = false;
  };
  model.onAttempt = ({ op, instance, token }) => {
    trace(`  op ${op}@${instance} sent with ${token ? String(readClaims(token)?.jti) : 'no token'}`);
    totals.attempts++;
    const record = operations[op]!;
    record.tokens.push(token);
    if (record.tokens.length === 2) totals.replays++;
    if (record.tokens.length > 2) fail(`op ${op} reached the server ${record.tokens.length} times`);
    if (record.settled === 'cancelled') fail(`op ${op} reached the server after it was unsubscribed`);
    if (record.tokens.length === 2 && token !== undefined && token === record.tokens[0]) {
      fail(`op ${op} was replayed with the token that had expired`);
    }
    if (loggedOut && token !== undefined) fail(`op ${op}@${instance} carried a token after logout`);
  };

  function settle(record: OperationRecord, how: 'data' | 'error' | 'cancelled', error?: unknown) {
    if (record.settled) fail(`op ${record.id} settled twice (${record.settled}, then ${how})`);
    record.settled = how;
    if (how === 'data') totals.operationsSucceeded++;
    if (how === 'error') {
      totals.operationsErrored++;
      if (!SessionEndedError.is(error) && !AuthRequestError.is(error) && !ServerError.is(error) && !(error instanceof ModelTransportError)) {
        fail(`op ${record.id} failed with an untyped error: ${String(error)}`);
      }
    }
    if (how === 'cancelled') totals.operationsCancelled++;
  }

  function startOperation(instance: number) {
    totals.operations++;
    const record: OperationRecord = { id: operations.length, instance, tokens: [], settled: null };
    operations.push(record);
    record.subscription = ApolloLink.execute(clients[instance]!.link, { query: PING, variables: { op: record.id } }, { client: {} as ApolloClient }).subscribe({
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

  async function fireUntil(until: number) {
    for (let fired = 0; clock.fireNext(until); fired++) {
      if (fired > MAX_TIMERS_PER_STEP) return fail('timers keep firing: a loop');
      await flush();
    }
  }

  function checkQuiet() {
    const stored = (memory.get() as TokenPair | null) ?? null;
    if (loggedOut && stored) fail('the store holds a pair after logout');
    const storedJti = stored ? readClaims(stored.accessToken)?.jti : undefined;
    clients.forEach(({ auth }, instance) => {
      const { status, user } = auth.getState();
      if (loggedOut && status === 'authenticated') fail(`instance ${instance} is authenticated after logout`);
      if (status === 'loading') fail(`instance ${instance} is still loading with nothing pending`);
      else if (stored && status !== 'authenticated') fail(`the store holds a pair but instance ${instance} is ${status}`);
      else if (!stored && status === 'authenticated') fail(`instance ${instance} is authenticated but the store is empty`);
      else if (stored && user && user.claims.jti !== storedJti) {
        fail(`instance ${instance} sends ${String(user.claims.jti)} but the store holds ${String(storedJti)}`);
      }
    });
  }

  function checkStep() {
    for (const resubmission of model.resubmissions.splice(0)) {
      if (resubmission.afterLostResponse) continue;
      const refused = resubmission.afterRejection ? ', after the service had refused it' : '';
      fail(`refresh token ${resubmission.token} reached the service ${resubmission.receptions} times${refused}`);
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
      trace(`${where}, pending: ${model.pending.map((r) => `${r.kind}@${r.instance}${r.abandoned ? '(abandoned)' : ''}`).join(', ')}`);
      totals.steps++;
      switch (step.kind) {
        case 'op':
          startOperation(step.instance % clients.length);
          break;
        case 'deliver':
          if (model.pending.length > 0) {
            const request = model.deliver(step.pick % model.pending.length, step.outcome);
            trace(`  delivered ${request.kind} of instance ${request.instance} ${request.refreshToken ?? request.op ?? ''}${request.abandoned ? ' (abandoned)' : ''}`);
          }
          break;
        case 'advance': {
          const until = clock.now() + step.ms;
          await fireUntil(until);
          clock.jump(until - clock.now());
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
          const user = MODEL_USERS[step.user]!;
          track(where, clients[step.instance % clients.length]!.auth.login(user.email, user.password));
          break;
        }
        case 'logout':
          totals.logoutCalls++;
          if (model.pending.some((request) => request.kind === 'refreshToken' && !request.abandoned)) totals.logoutsWithRefreshInFlight++;
          loggedOut = true;
          track(where, clients[step.instance % clients.length]!.auth.logout());
          break;
        case 'refresh':
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
    for (let round = 0; model.pending.length > 0; round++) {
      if (round > MAX_DRAIN_ROUNDS) {
        fail('the network never went quiet');
        break;
      }
      const request = model.deliver(0, 'ok');
      trace(`  drain delivered ${request.kind} of instance ${request.instance} ${request.refreshToken ?? request.op ?? ''}`);
      await flush();
    }
    await flush();
    for (const record of operations) if (!record.settled) fail(`op ${record.id}@${record.instance} never settled`);
    for (const call of calls) if (!call.settled) fail(`the call of ${call.what} never settled`);
    checkStep();

    where = 'dispose';
    for (const { auth } of clients) auth.dispose();
    await flush();
    if (clock.pending > 0) fail(`${clock.pending} timer(s) still armed after dispose()`);
    if (storeListeners > 0) fail(`${storeListeners} store listener(s) left after dispose()`);
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
