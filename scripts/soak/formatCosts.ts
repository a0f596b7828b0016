import type { TabFigures } from './measureTabCosts.ts';

/** A tab's {@link TabFigures} as the report's header and bench/RESULTS.md's table write them. */
export interface FormattedCosts {
  /** `412.0`: refreshes sent per hour. */
  readonly refreshesPerHour: string;
  /** `424.0`: new pairs taken per hour. */
  readonly pairsPerHour: string;
  /** `12 ms / 40 ms / 1.2 s (0.1 % / 0.4 % / 12.0 %)`: p50 / p95 / max, and in % of the lifetime; `–` for none. */
  readonly lateness: string;
  /** `2 of 40`: how many lifetimes ended on demand, of the lifetimes that ended. */
  readonly onDemand: string;
  /** `5.0 %`, or `–` when no lifetime ended. */
  readonly onDemandShare: string;
  readonly failedOutsideFaults: string;
}

/** A duration in ms: `850 ms` below a second, `3.2 s` from one. */
export function formatMs(ms: number): string {
  return Math.abs(ms) < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const percent = (value: number) => `${value.toFixed(1)} %`;

/** Writes a tab's figures for people. */
export function formatCosts(figures: TabFigures): FormattedCosts {
  const { lateness } = figures;
  return {
    refreshesPerHour: figures.refreshesPerHour.toFixed(1),
    pairsPerHour: figures.pairsPerHour.toFixed(1),
    lateness: lateness
      ? `${formatMs(lateness.p50Ms)} / ${formatMs(lateness.p95Ms)} / ${formatMs(lateness.maxMs)} (${percent(lateness.p50Percent)} / ${percent(lateness.p95Percent)} / ${percent(lateness.maxPercent)})`
      : '–',
    onDemand: `${figures.endedOnDemand} of ${figures.lifetimesEnded}`,
    onDemandShare: figures.onDemandShare === null ? '–' : percent(figures.onDemandShare * 100),
    failedOutsideFaults: String(figures.failedOutsideFaults),
  };
}
