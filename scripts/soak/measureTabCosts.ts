import { failedOutsideFaults } from './checkInvariants.ts';
import type { AppName, Journal, RefreshRecord } from './Journal.ts';

/**
 * The triggers of a refresh on demand: something found the access token dead (or refused) before the schedule
 * renewed it. An operation answered `TOKEN_EXPIRED`, one whose token was dead by the local clock, one refused with
 * an error that may mean the session is dead (`check`), a subscription socket refused (`socket`).
 */
export const ON_DEMAND_TRIGGERS: ReadonlySet<string> = new Set(['token-expired', 'expired-locally', 'check', 'socket']);

/**
 * The triggers of a refresh the schedule asked for: the timer (`proactive`, also when a read of the token finds
 * it overdue because the timer did not fire), or the app coming back after it fell due (`resume`).
 */
export const SCHEDULED_TRIGGERS: ReadonlySet<string> = new Set(['proactive', 'resume']);

/** A scheduled refresh later than this, in ms, is drawn as late on the tab's timeline. */
export const LATE_MS = 1000;

/** A refresh the schedule asked for, and how late it started. */
export interface ScheduledRefresh {
  readonly trigger: string;
  /** When it was due (the tab's `refreshAt` then), in ms since the soak's start. */
  readonly due: number;
  /** When it started. */
  readonly asked: number;
  /** `asked − due`, in ms. */
  readonly lateMs: number;
}

/** Percentiles of the lateness of a tab's scheduled refreshes: in ms, and in % of the access token's lifetime. */
export interface Lateness {
  /** How many scheduled refreshes it is over. */
  readonly count: number;
  /** How many of them were over {@link LATE_MS} late. */
  readonly late: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  readonly p50Percent: number;
  readonly p95Percent: number;
  readonly maxPercent: number;
}

/** What a day costs one tab (or the worker), as summary.json and bench/RESULTS.md give it. */
export interface TabFigures {
  readonly tab: string;
  readonly app: AppName;
  /** Refreshes this tab sent that brought a new pair (outcome `rotated`). */
  readonly refreshes: number;
  /** `refreshes` per hour of the run. */
  readonly refreshesPerHour: number;
  /** New pairs the tab took per hour of the run, its own refreshes and those it followed. */
  readonly pairsPerHour: number;
  /** How late its scheduled refreshes (`proactive`, `resume`) started; `null` when it ran none. */
  readonly lateness: Lateness | null;
  /** Lifetimes of its access tokens that ended with a renewal: the pair replaced by another of the same user. */
  readonly lifetimesEnded: number;
  /** Of those, the ones renewed by a refresh on demand here ({@link ON_DEMAND_TRIGGERS}, rotated or adopted). */
  readonly endedOnDemand: number;
  /** `endedOnDemand / lifetimesEnded`; `null` when no lifetime ended. */
  readonly onDemandShare: number | null;
  /** Its operations that failed outside every fault window (+2 s): must be 0. */
  readonly failedOutsideFaults: number;
}

/** A tab's {@link TabFigures}, and what the report's timeline draws of them. */
export interface TabCosts {
  readonly figures: TabFigures;
  /** Its scheduled refreshes, each with its lateness. */
  readonly scheduled: readonly ScheduledRefresh[];
  /** Its refreshes on demand that renewed the pair. */
  readonly onDemand: readonly RefreshRecord[];
}

/** The run a journal is of: how long it measured, and the access token's lifetime. */
export interface CostFacts {
  readonly durationMs: number;
  readonly accessTokenTtlMs: number;
}

/** The p-th percentile of sorted `values` by nearest rank: the smallest value with p % of them at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * What a day costs each tab of a run, and the worker, from the refreshes and the state changes their sessions
 * reported: refreshes per hour, how late each scheduled refresh started, the share of token lifetimes that ended
 * with a refresh on demand, and operations failed outside faults.
 *
 * @remarks
 * A scheduled refresh's lateness is when it was asked for less the `refreshAt` the tab's state showed then, both by
 * the page's clock: the timer's delay, a throttled or frozen page's, or the wait for a resume. A lifetime ends
 * with a renewal when the tab's state goes from one pair of a user to another of the same user (a refresh here, or
 * a pair another tab stored); a page load or a sign-in starts a lifetime without ending one.
 */
export function measureTabCosts(journal: Journal, facts: CostFacts): TabCosts[] {
  const hours = facts.durationMs / 3_600_000;
  const failed = failedOutsideFaults(journal);
  return [...journal.tabs, { tab: 'worker', app: 'worker' as const }].map(({ tab, app }) => {
    const refreshes = journal.refreshes.filter((each) => each.tab === tab);
    const states = journal.states.filter((each) => each.tab === tab);
    const scheduled: ScheduledRefresh[] = [];
    for (const refresh of refreshes.filter((each) => SCHEDULED_TRIGGERS.has(each.trigger))) {
      const due = states.filter((state) => state.t <= refresh.asked).at(-1)?.refreshAt;
      if (due == null) continue;
      scheduled.push({ trigger: refresh.trigger, due, asked: refresh.asked, lateMs: refresh.asked - due });
    }
    const lifetimesEnded = states.filter((state, index) => {
      const before = states[index - 1];
      return (
        before !== undefined &&
        before.load === state.load &&
        before.status === 'authenticated' &&
        state.status === 'authenticated' &&
        before.user === state.user &&
        before.expiresAt !== null &&
        state.expiresAt !== null &&
        before.expiresAt !== state.expiresAt
      );
    }).length;
    const onDemand = refreshes.filter(
      (each) => ON_DEMAND_TRIGGERS.has(each.trigger) && (each.outcome === 'rotated' || each.outcome === 'adopted'),
    );
    const rotated = refreshes.filter((each) => each.outcome === 'rotated').length;
    const figures: TabFigures = {
      tab,
      app,
      refreshes: rotated,
      refreshesPerHour: rotated / hours,
      pairsPerHour: lifetimesEnded / hours,
      lateness: lateness(scheduled, facts.accessTokenTtlMs),
      lifetimesEnded,
      endedOnDemand: onDemand.length,
      onDemandShare: lifetimesEnded ? onDemand.length / lifetimesEnded : null,
      failedOutsideFaults: failed.filter((op) => op.tab === tab).length,
    };
    return { figures, scheduled, onDemand };
  });
}

function lateness(scheduled: readonly ScheduledRefresh[], ttlMs: number): Lateness | null {
  if (scheduled.length === 0) return null;
  const sorted = scheduled.map((each) => each.lateMs).sort((a, b) => a - b);
  const percent = (ms: number) => (ms / ttlMs) * 100;
  const [p50Ms, p95Ms, maxMs] = [percentile(sorted, 50), percentile(sorted, 95), sorted.at(-1)!];
  return {
    count: sorted.length,
    late: sorted.filter((ms) => ms > LATE_MS).length,
    p50Ms,
    p95Ms,
    maxMs,
    p50Percent: percent(p50Ms),
    p95Percent: percent(p95Ms),
    maxPercent: percent(maxMs),
  };
}
