import fc from 'fast-check';
import type { Outcome } from './specServerModel';

/**
 * One thing that happens in a schedule. Indexes (`instance`, `pick`) are taken modulo what exists when the step
 * runs, so every generated schedule is valid and shrinks freely.
 */
export type Step =
  | { readonly kind: 'op'; readonly instance: number }
  | { readonly kind: 'deliver'; readonly pick: number; readonly outcome: Outcome }
  /** Time passes and timers fire on time; stops early at a timer that sends a request, so the schedule decides its fate. */
  | { readonly kind: 'advance'; readonly ms: number }
  /** Time passes and no timer fires: the machine sleeps. They fire late, at the next `fire` or `advance`. */
  | { readonly kind: 'jump'; readonly ms: number }
  /** Every timer that is due fires now, late if time jumped past it. */
  | { readonly kind: 'fire' }
  | { readonly kind: 'login'; readonly instance: number; readonly user: number }
  | { readonly kind: 'logout'; readonly instance: number }
  | { readonly kind: 'refresh'; readonly instance: number }
  | { readonly kind: 'cancel'; readonly pick: number }
  | { readonly kind: 'expireAll' }
  | { readonly kind: 'revokeAll' };

/** A whole run: the clients, the server's clock, what the shared store holds at start, and the steps. */
export interface Schedule {
  /** How many `createTokenAuth` instances share the one memory store (and so its lock). */
  readonly instances: number;
  /** The server clock minus the client clock, in ms. */
  readonly skewMs: number;
  /** `empty`: nobody logged in; `fresh`: a pair issued just now; `dead`: a pair whose access token expired. */
  readonly initial: 'empty' | 'fresh' | 'dead';
  /** How `TOKEN_EXPIRED` arrives: a GraphQL result, or HTTP 401 with a GraphQL body (an Apollo `ServerError`). */
  readonly expiredAs: 'result' | 'http401';
  /** Whether the store keeps only the two tokens, dropping `receivedAt`, as most hand-written stores do. */
  readonly dropsReceivedAt?: boolean;
  readonly steps: readonly Step[];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Shows a duration the way a person reads a schedule: `450ms`, `12s`, `16m`, `31d`. */
function duration(ms: number): string {
  if (ms >= 24 * 60 * MINUTE) return `${Math.round(ms / (24 * 60 * MINUTE))}d`;
  if (ms >= MINUTE) return `${Math.round(ms / MINUTE)}m`;
  if (ms >= SECOND) return `${Math.round(ms / SECOND)}s`;
  return `${ms}ms`;
}

/** One line per step, as it appears in a failure report. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'op':
      return `op@${step.instance}`;
    case 'deliver':
      return `deliver#${step.pick}:${step.outcome}`;
    case 'advance':
      return `advance ${duration(step.ms)}`;
    case 'jump':
      return `jump ${duration(step.ms)} (timers late)`;
    case 'fire':
      return 'fire due timers';
    case 'login':
      return `login@${step.instance} as u_${step.user}`;
    case 'logout':
      return `logout@${step.instance}`;
    case 'refresh':
      return `refresh()@${step.instance}`;
    case 'cancel':
      return `cancel op#${step.pick}`;
    case 'expireAll':
      return 'server expires all access tokens';
    case 'revokeAll':
      return 'server revokes all sessions';
  }
}

/** The schedule as fast-check prints it for a counterexample. */
export function describeSchedule(schedule: Schedule): string {
  const head = `instances=${schedule.instances} skew=${schedule.skewMs / MINUTE}m store=${schedule.initial}${schedule.dropsReceivedAt ? ' (drops receivedAt)' : ''} expiredAs=${schedule.expiredAs}`;
  return `Schedule(${head}) [\n${schedule.steps.map((step, i) => `  ${i}: ${describeStep(step)}`).join('\n')}\n]`;
}

/** Gives a schedule a readable form in fast-check's reports (counterexample and shrunk path). */
export function printable(schedule: Schedule): Schedule {
  return Object.assign(schedule, {
    [fc.toStringMethod]: () => describeSchedule(schedule),
    toString: () => describeSchedule(schedule),
  });
}

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('ok' as const) },
  { weight: 2, arbitrary: fc.constant('lost' as const) },
  { weight: 2, arbitrary: fc.constant('netfail' as const) },
  { weight: 2, arbitrary: fc.constant('http502' as const) },
  { weight: 1, arbitrary: fc.constant('reject' as const) },
);

// Mostly the small steps of an app in use; now and then the proactive refresh point (12.5 min), expiry
// (15 min), a night asleep, or past the refresh token's 30 days.
const advanceMs = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 10 * SECOND }) },
  { weight: 1, arbitrary: fc.integer({ min: 10 * SECOND, max: 2 * MINUTE }) },
  { weight: 2, arbitrary: fc.integer({ min: 2 * MINUTE, max: 16 * MINUTE }) },
);
const jumpMs = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 * MINUTE }) },
  { weight: 2, arbitrary: fc.integer({ min: 12 * MINUTE, max: 3 * 60 * MINUTE }) },
  { weight: 1, arbitrary: fc.constant(31 * 24 * 60 * MINUTE) },
);

const instance = fc.nat({ max: 2 });

/** Steps weighted towards operations and deliveries, where the interleavings are. */
export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('op' as const), instance }) },
  { weight: 14, arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat({ max: 7 }), outcome }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceMs }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('jump' as const), ms: jumpMs }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fire' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('login' as const), instance, user: fc.nat({ max: 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('logout' as const), instance }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refresh' as const), instance }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat({ max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('expireAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revokeAll' as const) }) },
);

/** Random schedules of at most `maxSteps` steps. */
export function scheduleArbitrary(maxSteps: number): fc.Arbitrary<Schedule> {
  return fc
    .record({
      instances: fc.integer({ min: 1, max: 3 }),
      skewMs: fc.constantFrom(0, 10 * MINUTE, -10 * MINUTE, 20 * MINUTE, -20 * MINUTE),
      initial: fc.constantFrom('fresh' as const, 'empty' as const, 'dead' as const),
      expiredAs: fc.constantFrom('result' as const, 'http401' as const),
      steps: fc.array(stepArbitrary, { maxLength: maxSteps, size: 'max' }),
    })
    .map(printable);
}
