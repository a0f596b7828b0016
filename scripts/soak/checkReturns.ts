import type { FaultRecord, Journal } from './Journal.ts';
import { faultsOf, GRACE, type Violation } from './checkInvariants.ts';

/** How soon after a wake the subscription's events must be back, in ms. */
export const TICKS_BACK = 5000;
/** How long after a return a page's screen must not fall to the sign-in form or a spinner, in ms. */
const SHOWN_AT_ONCE = 2000;

const meets = (t: number, from: number, to: number) => t >= from && t <= to;

/**
 * The wakes from the browser's sleeps: after each, at most one refresh per app (its tabs share one session), and
 * the ticker's events back within {@link TICKS_BACK} in each tab that shows them, unless the API itself was down
 * then. The refreshes are counted over half a token's life from the wake (when the tabs began to thaw), before the
 * next proactive one falls due.
 */
export function checkWakes(journal: Journal, accessTokenTtlMs: number): [string, Violation[]] {
  const violations: Violation[] = [];
  const sleeps = journal.faults.filter((fault) => fault.kind === 'sleep' && !Number.isNaN(fault.end));
  const refreshCounts: number[] = [];
  for (const sleep of sleeps) {
    const woke = sleep.wake ?? sleep.end;
    const until = woke + accessTokenTtlMs / 2;
    for (const app of ['nextjs', 'vite-spa'] as const) {
      // A person signing in or out right after the wake renews the session on purpose.
      const personal = journal.faults.some(
        (fault) =>
          fault.app === app &&
          (fault.kind === 'sign-out-in' || fault.kind === 'switch-user') &&
          fault.start <= until &&
          fault.end >= woke,
      );
      const refreshes = journal.sessions.filter(
        (each) => each.app === app && each.kind === 'refresh' && meets(each.t, woke, until),
      ).length;
      refreshCounts.push(refreshes);
      if (refreshes > 1 && !personal)
        violations.push({ t: woke, app, text: `${refreshes} refreshes within ${until - woke} ms of the wake` });
    }
    const apiDown = journal.faults.some(
      (fault) => fault.kind.startsWith('api-') && fault.start <= woke + TICKS_BACK && fault.end >= woke,
    );
    for (const tab of new Set(journal.ticks.map((tick) => tick.tab))) {
      const before = journal.ticks.some((tick) => tick.tab === tab && meets(tick.t, sleep.start - 30_000, sleep.start));
      const back = journal.ticks.find((tick) => tick.tab === tab && tick.t > woke);
      // A fault of the tab itself right after the wake (it went away, froze, reloaded) stops its ticker on purpose.
      const held = journal.faults.some(
        (fault) =>
          fault.target === tab && fault.start <= woke + TICKS_BACK && (Number.isNaN(fault.end) || fault.end >= woke),
      );
      if (!before || apiDown || held || (back && back.t - woke <= TICKS_BACK)) continue;
      violations.push({
        t: woke,
        tab,
        text: back
          ? `the subscription's first event came ${((back.t - woke) / 1000).toFixed(1)} s after the wake`
          : 'the subscription never came back after the wake',
      });
    }
  }
  const measured =
    sleeps.length === 0
      ? 'no sleep in this run'
      : `${sleeps.length} wake(s) after ${sleeps.map((each) => `${((each.end - each.start) / 1000).toFixed(0)} s`).join(', ')} asleep; refreshes per app after each: ${refreshCounts.join(', ')}`;
  return [measured, violations];
}

/**
 * The tabs back from another site (`back-forward`): restored from the back/forward cache, the page shows its user
 * at once (no sign-in form, no spinner, within {@link SHOWN_AT_ONCE}); and in every return, restored or loaded
 * anew, its first operation succeeds and no request of its goes out with a token dead by the clock before that
 * operation settles. What another fault of the app causes meanwhile (a frozen tab holding the refresh lock, an
 * outage) is that fault's, as in the other invariants.
 */
export function checkReturns(journal: Journal): [string, Violation[]] {
  const violations: Violation[] = [];
  const awayFaults = journal.faults.filter((fault) => fault.kind === 'back-forward' && !Number.isNaN(fault.end));
  let restored = 0;
  let reloaded = 0;
  for (const fault of awayFaults) {
    const back = journal.returns.find((each) => each.tab === fault.target && meets(each.t, fault.start, fault.end));
    // A page loaded anew reports no return of its own (its first `pageshow` is its load): it is back once settled.
    if (!back && !fault.note?.startsWith('loaded anew')) continue;
    if (back?.persisted) restored += 1;
    else reloaded += 1;
    violations.push(...afterReturn(journal, fault, back?.t ?? fault.end, back?.persisted === true));
  }
  const dead = journal.deadTokens.length;
  return [
    `${awayFaults.length} returns with the back button: ${restored} from the back/forward cache, ${reloaded} loaded anew; ${dead} request(s) in the run with a token dead by the clock`,
    violations,
  ];
}

function afterReturn(journal: Journal, fault: FaultRecord, t: number, persisted: boolean): Violation[] {
  const tab = fault.target;
  const violations: Violation[] = [];
  const others = faultsOf(journal, fault.app).filter((other) => other !== fault);
  const excused = (at: number) =>
    others.some((other) => at >= other.start && (Number.isNaN(other.end) || at <= other.end + GRACE));
  const fell = journal.screens.find(
    (screen) => screen.tab === tab && meets(screen.t, t, t + SHOWN_AT_ONCE) && !screen.screen.includes('@'),
  );
  if (persisted && fell && !excused(fell.t))
    violations.push({ t: fell.t, tab, text: `restored from the back/forward cache, it showed ${fell.screen}` });
  const first = journal.operations.find((op) => op.tab === tab && op.start >= t);
  if (first?.ok === false && !excused(first.end!))
    violations.push({ t: first.end!, tab, text: `its first operation after the return failed: ${first.error}` });
  const dead = journal.deadTokens.find(
    (each) => each.tab === tab && meets(each.t, t, first?.end ?? t + 30_000) && !excused(each.t),
  );
  if (dead)
    violations.push({
      t: dead.t,
      tab,
      text: `after the return, a request went out with a token ${dead.late} ms past its exp`,
    });
  return violations;
}
