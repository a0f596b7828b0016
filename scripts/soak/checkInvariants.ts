import { checkReturns, checkWakes, TICKS_BACK } from './checkReturns.ts';
import type { AppName, FaultRecord, Journal, OperationRecord } from './Journal.ts';

/** One breach of an invariant: when, where, and what happened around it. */
export interface Violation {
  readonly t: number;
  readonly tab?: string;
  readonly app?: AppName;
  readonly text: string;
  around?: string[];
}

/** An invariant's verdict over the whole run. */
export interface InvariantResult {
  readonly name: string;
  readonly title: string;
  /** What was measured, in a line. */
  readonly measured: string;
  readonly violations: Violation[];
  readonly passed: boolean;
}

/** What the soak knows besides the journal. */
export interface RunFacts {
  readonly durationMs: number;
  readonly accessTokenTtlMs: number;
  /** Refresh tokens the API saw spent twice, and when. */
  readonly reuse: ReadonlyArray<{ t: number; count: number }>;
  /** The mutations the API ran in all (its `stats.renames`), when known: it must equal the runs the journal counted. */
  readonly renames?: number;
}

/** How long past its end a fault's window reaches, in ms. */
export const GRACE = 2000;
const SETTLE_LIMIT = 30_000;
const SAME_USER_LIMIT = 2000;
const REFRESH_LIMIT = 1.25;
/** Network errors a fault causes, as Chromium writes them to the console. */
const NETWORK_ERROR =
  /Failed to load resource|net::ERR_|Failed to fetch|NetworkError|WebSocket connection to .* failed/;

/** The faults whose windows excuse what happens in `app`: its own tabs' faults, and the system's that it goes through. */
export function faultsOf(journal: Journal, app: AppName | undefined): FaultRecord[] {
  return journal.faults.filter(
    (fault) =>
      fault.app === app ||
      (fault.app === undefined &&
        (fault.kind.startsWith('api-') ||
          app === 'nextjs' ||
          app === undefined ||
          (fault.kind === 'sleep' && app !== 'worker'))),
  );
}

/**
 * The faults that keep `tab`'s page from running (frozen, the whole browser asleep, away on another site): what
 * the other tabs did meanwhile, it learns when it is back.
 */
export function stillsOf(journal: Journal, tab: string): FaultRecord[] {
  return journal.faults.filter(
    (fault) =>
      fault.kind === 'sleep' ||
      (fault.target === tab && (fault.kind.startsWith('frozen') || fault.kind === 'back-forward')),
  );
}

/**
 * How long a token handler instance killed mid-rotation holds up its session: the others wait out its claim (the
 * handler's `timeout`, 10 s, and 1 s), then end the session as lost (`SESSION_LOST`), since its token may be spent.
 */
export const HANDLER_CLAIM = 11_000;

// A killed handler's window reaches as far as its claim: what follows from the kill, within that bound, is its own.
const endOf = (fault: FaultRecord) =>
  Number.isNaN(fault.end)
    ? Number.POSITIVE_INFINITY
    : fault.kind === 'handler-restart'
      ? Math.max(fault.end, fault.start + HANDLER_CLAIM)
      : fault.end;

/** Whether [start, end] meets a window [fault.start, fault.end + after]. */
function meets(start: number, end: number, faults: readonly FaultRecord[], after = GRACE): boolean {
  return faults.some((fault) => start <= endOf(fault) + after && end >= fault.start);
}

/** The app whose session lives in its tabs only (examples/vite-spa on the broadcast store): no cookie restores it. */
const SESSION_IN_TABS: AppName = 'vite-spa';

/** Whether `fault` is `tab` closed (until it is opened again). */
const isClosed = (fault: FaultRecord, tab: string) => fault.target === tab && fault.kind === 'close-reopen';

/**
 * Whether `tab`, at `t`, was loading a page alone: in its own reload or reopen, with every other tab of its app
 * frozen, away on another site or closed by a fault, or held by the soak (a heap snapshot). 2-hour run, seed 1, at
 * 3089 s: vite-spa#3 reloaded while #1 and #2 were away on another site. No tab can hand it the pair then, and a
 * page that hears none, with no tab holding the refresh lock, is signed out by design until one answers
 * (docs/tabs-and-instances.md; a frozen lock holder keeps it loading instead, restore.test.ts). Seed 1 at 1528.5 s: vite-spa#2 reloaded while #1
 * was frozen and #3 was in a heap snapshot, showed the sign-in form for 0.3 s, and followed #3 when it came back.
 */
function loadedAlone(journal: Journal, { tab, app }: { tab: string; app: AppName }, t: number): boolean {
  if (app !== SESSION_IN_TABS) return false;
  const within = (start: number, end: number) => t >= start && t <= end;
  const loading = journal.faults.some(
    (fault) =>
      fault.target === tab &&
      (fault.kind === 'reload' || fault.kind === 'close-reopen') &&
      within(fault.start, endOf(fault)),
  );
  const others = journal.tabs.filter((each) => each.app === app && each.tab !== tab);
  return (
    loading &&
    others.every(
      (other) =>
        // Its page not running (frozen, asleep, away on another site: `stillsOf`), or closed.
        [...stillsOf(journal, other.tab), ...journal.faults.filter((fault) => isClosed(fault, other.tab))].some(
          (fault) => within(fault.start, endOf(fault)),
        ) || journal.pauses.some((pause) => pause.tab === other.tab && within(pause.start, pause.end)),
    )
  );
}

/** The operations that failed outside every fault window (+2 s) of their app: each one breaks an invariant. */
export function failedOutsideFaults(journal: Journal): OperationRecord[] {
  return journal.operations.filter((op) => op.ok === false && !meets(op.start, op.end!, faultsOf(journal, op.app)));
}

/** Checks every invariant of the soak over the journal of a run. */
export function checkInvariants(journal: Journal, facts: RunFacts): InvariantResult[] {
  const results: InvariantResult[] = [];
  const result = (name: string, title: string, measured: string, violations: Violation[]) => {
    for (const violation of violations) violation.around = around(journal, violation);
    results.push({ name, title, measured, violations, passed: violations.length === 0 });
  };
  const apps = ['nextjs', 'vite-spa'] as const;

  const reuse = facts.reuse.reduce((sum, each) => sum + each.count, 0);
  result(
    'reuse',
    '0 refresh-token reuse detections',
    `${reuse} reuse detections`,
    facts.reuse.map((each) => ({
      t: each.t,
      text: `the API saw ${each.count} refresh token(s) spent twice and revoked the session`,
    })),
  );

  // A screen that went from a user to the sign-in form, with no sign-out by the person (in any tab of the app) then.
  const signOuts: Violation[] = [];
  let signOutsSeen = 0;
  for (const { tab, app } of journal.tabs) {
    // A handler instance killed mid-rotation may have let the API spend the token with no one to take the answer:
    // the contract has no way back, and the handler ends the session as lost rather than send the token again.
    const personal = faultsOf(journal, app).filter(
      (fault) =>
        (fault.app === app && (fault.kind === 'sign-out-in' || fault.kind === 'switch-user')) ||
        fault.kind === 'handler-restart',
    );
    // A tab frozen (or asleep, or away) through a person's sign-out follows it when it is back: its window reaches
    // that moment.
    const thaws = stillsOf(journal, tab);
    for (const fault of [...personal]) {
      for (const thaw of thaws.filter((each) => each.start <= endOf(fault) && endOf(each) >= fault.start))
        personal.push({ ...fault, end: endOf(thaw) });
    }
    let last: string | undefined;
    for (const screen of journal.screens.filter((each) => each.tab === tab)) {
      if (screen.screen === 'loading') continue;
      if (screen.screen === 'signed-out' && last?.includes('@')) {
        signOutsSeen += 1;
        if (!meets(screen.t, screen.t, personal) && !loadedAlone(journal, { tab, app }, screen.t))
          signOuts.push({
            t: screen.t,
            tab,
            app,
            text: `signed out (it showed ${last}) with no sign-out by the person`,
          });
      }
      last = screen.screen;
    }
  }
  const workerLogins = journal.sessions.filter((each) => each.app === 'worker' && each.kind === 'login');
  for (const login of workerLogins.slice(1))
    signOuts.push({
      t: login.t,
      tab: 'worker',
      app: 'worker',
      text: 'the worker had to log in again: its session was lost',
    });
  result(
    'no-lost-session',
    '0 sign-outs that no fault or user action caused',
    `${signOutsSeen} sign-outs seen in tabs, ${workerLogins.length} worker login(s)`,
    signOuts,
  );

  // Every tab of an app shows the same user (or the sign-in form) within 2 s of a change.
  const disagreements: Violation[] = [];
  for (const app of apps) {
    const tabs = journal.tabs.filter((each) => each.app === app).map((each) => each.tab);
    const away = journal.faults.filter(
      (fault) =>
        fault.kind === 'sleep' ||
        (fault.app === app &&
          (fault.kind.startsWith('frozen') || fault.kind === 'close-reopen' || fault.kind === 'back-forward')),
    );
    // A tab whose main thread the soak held (a heap snapshot) handled none of the other tabs' messages meanwhile:
    // it follows them when the pause ends, and has the 2 s of the limit from then.
    const paused = journal.pauses.filter((pause) => pause.app === app);
    let since: number | undefined;
    let reported = false;
    for (let t = 0; t <= facts.durationMs; t += 250) {
      const shown = new Map<string, string>();
      for (const tab of tabs) {
        const screen = journal.screens.filter((each) => each.tab === tab && each.t <= t).at(-1)?.screen;
        const gone =
          away.some(
            (fault) =>
              (fault.target === tab || fault.kind === 'sleep') && t >= fault.start && t <= endOf(fault) + GRACE,
          ) || paused.some((pause) => pause.tab === tab && t >= pause.start && t <= pause.end);
        if (screen && screen !== 'loading' && !gone) shown.set(tab, screen);
      }
      if (new Set(shown.values()).size <= 1) {
        since = undefined;
        reported = false;
        continue;
      }
      since ??= t;
      if (!reported && t - since > SAME_USER_LIMIT) {
        reported = true;
        disagreements.push({
          t: since,
          app,
          text: `tabs disagree for over 2 s: ${[...shown].map(([tab, screen]) => `${tab} shows ${screen}`).join(', ')}`,
        });
      }
    }
  }
  result(
    'same-user',
    'every tab of an app shows the same user within 2 s of a change',
    'screens read on every change of the page (a MutationObserver)',
    disagreements,
  );

  const settled = journal.operations.filter((op) => op.ok !== undefined);
  const failed = settled.filter((op) => !op.ok);
  const unexcused = failedOutsideFaults(journal);
  result(
    'no-failed-operation',
    '0 operations failed outside a fault window (+2 s)',
    `${settled.length} operations settled, ${failed.length} failed, ${failed.length - unexcused.length} of them in fault windows`,
    unexcused.map((op) => ({
      t: op.end!,
      tab: op.tab,
      app: op.app,
      text: `operation failed after ${((op.end! - op.start) / 1000).toFixed(1)} s: ${op.error}`,
    })),
  );

  const slow: Violation[] = [];
  const ownFreeze = (op: OperationRecord) => stillsOf(journal, op.tab);
  for (const op of journal.operations) {
    const end = op.end ?? (op.error ? undefined : facts.durationMs);
    if (end === undefined || end - op.start <= SETTLE_LIMIT || meets(op.start, end, ownFreeze(op), 0)) continue;
    slow.push({
      t: op.start,
      tab: op.tab,
      app: op.app,
      text:
        op.end === undefined
          ? 'operation never settled'
          : `operation took ${((op.end - op.start) / 1000).toFixed(1)} s`,
    });
  }
  const longest = Math.max(
    0,
    ...settled.filter((op) => !meets(op.start, op.end!, ownFreeze(op), 0)).map((op) => op.end! - op.start),
  );
  result(
    'settles',
    'every operation settles within 30 s',
    `the longest took ${(longest / 1000).toFixed(1)} s (its tab not frozen)`,
    slow,
  );

  result(
    'refresh-rate',
    `at most ${REFRESH_LIMIT} refreshes per session per access-token lifetime outside fault windows`,
    ...refreshRate(journal, facts),
  );

  const crossed = journal.operations.filter(
    (op) => op.app !== 'worker' && op.user && op.screen?.includes('@') && op.user !== op.screen,
  );
  // A subscription event on the screen of another user; on a screen between users ('loading', 'signed-out')
  // only when that screen did not change within 2 s of it.
  const crossedTicks = journal.ticks.filter(
    (tick) =>
      tick.email !== tick.screen &&
      (tick.screen.includes('@') ||
        !journal.screens.some((screen) => screen.tab === tick.tab && Math.abs(screen.t - tick.t) <= GRACE)),
  );
  result(
    'no-crossed-data',
    "no answer or subscription event for one user on another user's screen",
    `${journal.operations.filter((op) => op.user).length} answers and ${journal.ticks.length} subscription events (${tickGaps(journal)}) compared with the screen they arrived on`,
    [
      ...crossed.map((op) => ({
        t: op.end!,
        tab: op.tab,
        app: op.app,
        text: `an answer for ${op.user} arrived while the tab showed ${op.screen}`,
      })),
      ...crossedTicks.map((tick) => ({
        t: tick.t,
        tab: tick.tab,
        app: tick.app,
        text: `ticker event ${tick.n} for ${tick.email} shown while the tab showed ${tick.screen}`,
      })),
    ].sort((a, b) => a.t - b.t),
  );

  result(
    'subscription-live',
    'the ticker subscription has an event within 30 s of every fault-free moment signed in',
    ...tickerLiveness(journal, facts),
  );

  result(
    'mutation-once',
    'every mutation the clients saw succeed ran once on the API, none ran twice',
    ...mutationRuns(journal, facts),
  );

  const errors = journal.notes.filter((note) => note.kind === 'page-error' || note.kind === 'console-error');
  const unexplained = errors.filter(
    (note) =>
      note.kind === 'page-error' ||
      !(NETWORK_ERROR.test(note.text) && meets(note.t, note.t, faultsOf(journal, note.app))),
  );
  result(
    'no-errors',
    "0 page errors, no console errors beyond the faults' network errors",
    `${errors.length} console and page errors, ${errors.length - unexplained.length} of them network errors in fault windows`,
    unexplained.map((note) => ({
      t: note.t,
      tab: note.tab,
      app: note.app,
      text: `${note.kind}: ${note.text.slice(0, 300)}`,
    })),
  );

  result(
    'wake',
    `after a sleep, one refresh per app and the subscription back within ${TICKS_BACK / 1000} s`,
    ...checkWakes(journal, facts.accessTokenTtlMs),
  );

  result(
    'back-forward',
    'back with the back button: the user shown at once, the first operation ok and sent with a live token',
    ...checkReturns(journal),
  );

  result('heap', "no tab's JS objects grow across the run (heap snapshots)", ...heapTrend(journal));
  return results;
}

/**
 * Each mutation of the workload renames a club to a name of its own; the API front counted the answers that
 * carried it (the mutation ran). One that succeeded in its client ran exactly once; one that failed, or whose
 * page went away first, ran at most once (a replay after a refusal is one run: the refused attempt did not run).
 */
function mutationRuns(journal: Journal, facts: RunFacts): [string, Violation[]] {
  const violations: Violation[] = [];
  const mutations = journal.operations.filter((op) => op.kind === 'mutation' && op.name);
  const ok = mutations.filter((op) => op.ok);
  let runs = 0;
  for (const op of mutations) {
    const count = journal.runs.get(op.name!) ?? 0;
    runs += count;
    if (count > 1)
      violations.push({
        t: op.start,
        tab: op.tab,
        app: op.app,
        text: `mutation "${op.name}" ran ${count} times on the API (its client saw it ${op.ok ? 'succeed' : `fail: ${op.error}`})`,
      });
    else if (op.ok && count === 0)
      violations.push({
        t: op.end!,
        tab: op.tab,
        app: op.app,
        text: `mutation "${op.name}" succeeded in its client, and the API never ran it`,
      });
  }
  const total = [...journal.runs.values()].reduce((sum, each) => sum + each, 0);
  if (facts.renames !== undefined && facts.renames !== total) {
    violations.push({
      t: facts.durationMs,
      text: `the API ran ${facts.renames} mutations, its front saw ${total} answers of one`,
    });
  }
  const unknown = mutations.filter((op) => !op.ok);
  return [
    `${mutations.length} mutations sent, ${ok.length} succeeded in their clients; the API ran them ${runs} times (${facts.renames ?? '?'} in all), ${unknown.filter((op) => journal.runs.has(op.name!)).length} of the ${unknown.length} that failed or never settled had run once`,
    violations,
  ];
}

/**
 * In each tab that shows the ticker (one that had an event), the time it waited for the next event while it showed
 * a user and no fault of its app (nor the 2 s after one) was on: over 30 s of that is a subscription that stopped.
 */
function tickerLiveness(journal: Journal, facts: RunFacts): [string, Violation[]] {
  const violations: Violation[] = [];
  const waits: string[] = [];
  for (const tab of [...new Set(journal.ticks.map((tick) => tick.tab))]) {
    const ticks = journal.ticks.filter((tick) => tick.tab === tab);
    const app = ticks[0]!.app;
    const faults = faultsOf(journal, app);
    const screens = journal.screens.filter((screen) => screen.tab === tab);
    let next = 0;
    let shown = 0;
    let due = 0;
    let longest = 0;
    let reported = false;
    for (let t = ticks[0]!.t; t <= facts.durationMs; t += 250) {
      for (; next < ticks.length && ticks[next]!.t <= t; next++) [due, reported] = [0, false];
      for (; shown < screens.length && screens[shown]!.t <= t; shown++);
      if (screens[shown - 1]?.screen.includes('@') && !meets(t, t, faults)) due += 250;
      longest = Math.max(longest, due);
      if (due > SETTLE_LIMIT && !reported) {
        reported = true;
        const last = ticks[next - 1]!;
        violations.push({
          t: last.t,
          tab,
          app,
          text: `no ticker event for over 30 s of signed-in time with no fault, after event ${last.n} at ${(last.t / 1000).toFixed(1)} s`,
        });
      }
    }
    waits.push(`${tab}: ${(longest / 1000).toFixed(1)} s`);
  }
  return [
    `the longest fault-free signed-in wait for an event: ${waits.join(', ') || 'no tab showed the ticker'}`,
    violations,
  ];
}

/** The ticker tabs' events: how many, and the longest wait between two in a page load. */
function tickGaps(journal: Journal): string {
  const tabs = [...new Set(journal.ticks.map((tick) => tick.tab))];
  return (
    tabs
      .map((tab) => {
        const ticks = journal.ticks.filter((tick) => tick.tab === tab);
        const gap = Math.max(0, ...ticks.slice(1).map((tick, index) => tick.t - ticks[index]!.t));
        return `${tab}: the longest wait between two ${(gap / 1000).toFixed(1)} s`;
      })
      .join(', ') || 'no tab showed the ticker'
  );
}

/**
 * How far past a fault's end the refresh that catches up on it may come: a refresh that failed in the fault is
 * retried within 30 s (the retry delay's cap), a page loaded in it renews at once, an operation comes within 3 s.
 */
const CATCH_UP_LIMIT = 30_000;

/**
 * Per session (the API's `sid`): upstream refreshes outside fault windows, against the session's time outside
 * them, in access-token lifetimes. A window reaches one lifetime past a fault's end, at most 30 s (the refresh
 * that catches up is the fault's: with 10-s tokens, the lifetime; with 15-minute tokens, a lifetime would leave no
 * time outside the windows, while the catch-up comes within the retry delay's cap), and one refresh is allowed
 * over the limit for the ends of each quiet stretch: faults that cut a session's quiet time into stretches shorter
 * than its refresh interval would make a session refreshing on schedule look twice as fast (seed 1, a Next.js
 * session: 31 refreshes 8.5 to 23.6 s apart, 6 of them in 3.6 quiet lifetimes cut in pieces).
 */
function refreshRate(journal: Journal, facts: RunFacts): [string, Violation[]] {
  const violations: Violation[] = [];
  const rates: string[] = [];
  const sids = [...new Set(journal.sessions.map((each) => each.sid))];
  for (const sid of sids) {
    const records = journal.sessions.filter((each) => each.sid === sid);
    const app = records[0]!.app;
    const faults = faultsOf(journal, app);
    const reach = Math.min(facts.accessTokenTtlMs, CATCH_UP_LIMIT);
    const from = records[0]!.t;
    const ended = journal.sessions.find(
      (each) => each.t > from && each.app === app && each.kind === 'login' && each.sid !== sid,
    );
    const to = Math.min(ended?.t ?? facts.durationMs, facts.durationMs);
    let quiet = 0;
    let stretches = 0;
    let wasQuiet = false;
    for (let t = from; t < to; t += 100) {
      const isQuiet = !meets(t, t, faults, reach);
      if (isQuiet) quiet += 100;
      if (isQuiet && !wasQuiet) stretches += 1;
      wasQuiet = isQuiet;
    }
    const refreshes = records.filter((each) => each.kind === 'refresh' && !meets(each.t, each.t, faults, reach)).length;
    if (quiet < 2 * facts.accessTokenTtlMs) continue;
    const lifetimes = quiet / facts.accessTokenTtlMs;
    rates.push(`${app} ${sid.slice(0, 6)}: ${refreshes} in ${lifetimes.toFixed(1)} lifetimes`);
    if (refreshes > REFRESH_LIMIT * lifetimes + stretches) {
      violations.push({
        t: from,
        app,
        text: `session ${sid.slice(0, 8)} (${app}, ${records[0]!.user}) refreshed ${refreshes} times in ${lifetimes.toFixed(1)} quiet access-token lifetimes`,
      });
    }
  }
  return [
    `${journal.sessions.filter((each) => each.kind === 'refresh').length} refreshes in ${sids.length} sessions; quiet rates: ${rates.join('; ') || 'none long enough'}`,
    violations,
  ];
}

/**
 * Per tab and page load, the least-squares slope of the page's own JS objects after a garbage collection (see
 * `jsObjectBytes`), over loads sampled for at least a minute: growth over the load of more than 2 MB and a quarter
 * of its first sample is a leak.
 */
function heapTrend(journal: Journal): [string, Violation[]] {
  const violations: Violation[] = [];
  const slopes: string[] = [];
  for (const [tab, samples] of journal.heap) {
    const loads = [...new Set(samples.map(([, , load]) => load))];
    for (const load of loads) {
      const points = samples.filter(([, , each]) => each === load).slice(1); // the first is the page still starting
      if (points.length < 5 || points.at(-1)![0] - points[0]![0] < 60_000) continue;
      const n = points.length;
      const mx = points.reduce((sum, [t]) => sum + t, 0) / n;
      const my = points.reduce((sum, [, bytes]) => sum + bytes, 0) / n;
      const slope =
        points.reduce((sum, [t, bytes]) => sum + (t - mx) * (bytes - my), 0) /
        points.reduce((sum, [t]) => sum + (t - mx) ** 2, 0);
      const span = points.at(-1)![0] - points[0]![0];
      const growth = slope * span;
      slopes.push(`${tab}: ${((slope * 60_000) / 1024).toFixed(0)} KB/min`);
      if (growth > Math.max(2 * 1024 * 1024, points[0]![1] / 4)) {
        violations.push({
          t: points[0]![0],
          tab,
          text: `heap grew ${(growth / 1024 / 1024).toFixed(1)} MB over ${(span / 60_000).toFixed(1)} min (${(points[0]![1] / 1024 / 1024).toFixed(1)} MB at first)`,
        });
      }
    }
  }
  return [slopes.join('; ') || 'no page load sampled for a minute', violations];
}

/** The journal's lines around a violation: its app's and the system's, from 5 s before to 2 s after. */
function around(journal: Journal, violation: Violation): string[] {
  return journal.notes
    .filter((note) => note.t >= violation.t - 5000 && note.t <= violation.t + 2000)
    .filter((note) => !violation.app || !note.app || note.app === violation.app)
    .slice(-25)
    .map(
      (note) =>
        `${(note.t / 1000).toFixed(1)} s ${note.tab ?? note.app ?? ''} ${note.kind}: ${note.text.slice(0, 200)}`,
    );
}
