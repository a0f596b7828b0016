import { describe, expect, it } from 'vitest';
import { Journal, type RefreshRecord, type StateRecord } from '../../scripts/soak/Journal';
import { measureTabCosts, percentile, type TabFigures } from '../../scripts/soak/measureTabCosts';
import { formatCosts } from '../../scripts/soak/formatCosts';
import { parseOptions } from '../../scripts/soak/options';

const TAB = 'vite-spa#1';
const HOUR = 3_600_000;

/** A journal of one tab (and the worker, which did nothing). */
function journalOfOneTab(): Journal {
  const journal = new Journal();
  journal.tabs.push({ tab: TAB, app: 'vite-spa' });
  return journal;
}

/** The tab's state: signed in as `user` with the pair that expires at `expiresAt`, its refresh due at `refreshAt`. */
const state = (t: number, expiresAt: number, refreshAt: number, extra: Partial<StateRecord> = {}): StateRecord => ({
  tab: TAB,
  app: 'vite-spa',
  t,
  status: 'authenticated',
  user: 'admin@demo.test',
  expiresAt,
  refreshAt,
  ended: null,
  retry: null,
  load: 'a',
  ...extra,
});

const refresh = (asked: number, trigger: string, outcome = 'rotated', t = asked + 50): RefreshRecord => ({
  tab: TAB,
  app: 'vite-spa',
  t,
  asked,
  trigger,
  outcome,
});

const figuresOf = (journal: Journal, facts = { durationMs: HOUR, accessTokenTtlMs: 10_000 }): TabFigures =>
  measureTabCosts(journal, facts).find((each) => each.figures.tab === TAB)!.figures;

/**
 * A tab on `ttl`-ms tokens whose pairs are each refreshed `lates[i]` ms after their `refreshAt` (85 % of the life)
 * by `triggers[i]` (proactive unless told).
 */
function tabOnSchedule(ttl: number, lates: readonly number[], triggers: readonly string[] = []): Journal {
  const journal = journalOfOneTab();
  let t = 0;
  lates.forEach((late, index) => {
    const refreshAt = t + ttl * 0.85;
    journal.states.push(state(t, t + ttl, refreshAt));
    journal.refreshes.push(refresh(refreshAt + late, triggers[index] ?? 'proactive'));
    t = refreshAt + late + 50;
  });
  journal.states.push(state(t, t + ttl, t + ttl * 0.85));
  return journal;
}

describe('what a day costs a tab of the soak', () => {
  it.each([
    // sorted values, percentile, nearest rank
    [[5], 50, 5],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4], 95, 4],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [Array.from({ length: 100 }, (_, i) => i + 1), 95, 95],
  ])('takes the percentile of %j at %i by nearest rank: %i', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it.each([
    // token lifetime (ms), how late each proactive refresh started (ms), p50 / p95 / max ms, and in % of the life
    { ttl: 10_000, lates: [0, 2, 4, 10, 500], ms: [4, 500, 500], percent: [0.04, 5, 5], late: 0 },
    { ttl: 900_000, lates: [0, 200, 400, 1000, 45_000], ms: [400, 45_000, 45_000], percent: [0.044, 5, 5], late: 1 },
    {
      ttl: 10_000,
      lates: [-3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 60_000],
      ms: [1, 1, 60_000],
      percent: [0.01, 0.01, 600],
      late: 1,
    },
  ])(
    'measures how late proactive refreshes started after their refreshAt, in ms and in % of a $ttl ms life',
    ({ ttl, lates, ms, percent, late }) => {
      const { lateness } = figuresOf(tabOnSchedule(ttl, lates), { durationMs: HOUR, accessTokenTtlMs: ttl });
      expect(lateness).toMatchObject({ count: lates.length, late, p50Ms: ms[0], p95Ms: ms[1], maxMs: ms[2] });
      expect(
        [lateness!.p50Percent, lateness!.p95Percent, lateness!.maxPercent].map((each) => +each.toFixed(3)),
      ).toEqual(percent);
    },
  );

  it('counts a resume as a scheduled refresh, late from the refreshAt that fell due while the tab was away', () => {
    const { lateness } = figuresOf(tabOnSchedule(10_000, [20, 30_000], ['proactive', 'resume']));
    expect(lateness).toMatchObject({ count: 2, late: 1, maxMs: 30_000 });
  });

  it('has no lateness for a tab whose refreshes the schedule never asked for', () => {
    expect(figuresOf(tabOnSchedule(10_000, [0, 0], ['token-expired', 'manual'])).lateness).toBeNull();
  });

  it.each([
    // the trigger of the refresh that renewed each of 4 pairs, its outcome; how many ended on demand
    { triggers: ['proactive', 'proactive', 'resume', 'retry'], outcome: 'rotated', onDemand: 0 },
    { triggers: ['token-expired', 'proactive', 'expired-locally', 'proactive'], outcome: 'rotated', onDemand: 2 },
    { triggers: ['check', 'socket', 'proactive', 'manual'], outcome: 'rotated', onDemand: 2 },
    // Another tab had rotated: the pair is taken with no request, and the operation that asked still found it dead.
    { triggers: ['token-expired', 'expired-locally', 'proactive', 'proactive'], outcome: 'adopted', onDemand: 2 },
    // Failed, rejected, superseded: the lifetime did not end with it.
    { triggers: ['token-expired', 'token-expired', 'proactive', 'proactive'], outcome: 'failed', onDemand: 0 },
  ])('counts a lifetime ended on demand when $triggers ($outcome) renewed it', ({ triggers, outcome, onDemand }) => {
    const journal = tabOnSchedule(10_000, [0, 0, 0, 0]);
    journal.refreshes.splice(
      0,
      4,
      ...journal.refreshes.map((each, i) => ({ ...each, trigger: triggers[i]!, outcome })),
    );
    expect(figuresOf(journal)).toMatchObject({
      lifetimesEnded: 4,
      endedOnDemand: onDemand,
      onDemandShare: onDemand / 4,
    });
  });

  it('ends a lifetime with a pair another tab stored, and not with a page load, a sign-in or a switch of user', () => {
    const journal = journalOfOneTab();
    journal.states.push(
      state(0, 10_000, 8500, { status: 'loading', user: null, expiresAt: null, refreshAt: null }),
      state(100, 10_000, 8500),
      // Followed from another tab: a renewal, no refresh of its own.
      state(8600, 18_600, 17_100),
      // Reloaded: the new page's first pair starts a lifetime.
      state(9000, 19_000, 17_500, { load: 'b' }),
      // Signed out, signed in again.
      state(12_000, 0, 0, { load: 'b', status: 'unauthenticated', user: null, expiresAt: null, refreshAt: null }),
      state(13_000, 23_000, 21_500, { load: 'b' }),
      // Another user.
      state(14_000, 24_000, 22_500, { load: 'b', user: 'owner@demo.test' }),
      // A retry shown, the pair the same: not a new pair.
      state(15_000, 24_000, 22_500, { load: 'b', user: 'owner@demo.test', retry: 'Failed to fetch' }),
    );
    journal.refreshes.push(refresh(9000, 'restore'));
    expect(figuresOf(journal)).toMatchObject({ lifetimesEnded: 1, endedOnDemand: 0, onDemandShare: 0, refreshes: 1 });
  });

  it('counts the refreshes a tab sent that brought a pair, per hour of the run, and the new pairs it took', () => {
    const journal = tabOnSchedule(10_000, [0, 0, 0, 0, 0, 0]);
    journal.refreshes[1] = { ...journal.refreshes[1]!, outcome: 'adopted' };
    journal.refreshes.push(refresh(70_000, 'retry', 'failed'), refresh(75_000, 'token-expired', 'superseded'));
    // 5 rotated, 6 new pairs in 2 minutes.
    expect(figuresOf(journal, { durationMs: 120_000, accessTokenTtlMs: 10_000 })).toMatchObject({
      refreshes: 5,
      refreshesPerHour: 150,
      pairsPerHour: 180,
    });
  });

  it('counts the operations a tab saw fail outside every fault window, not those in one', () => {
    const journal = journalOfOneTab();
    const op = (id: number, start: number, ok: boolean, tab = TAB) =>
      journal.operations.push({ tab, app: tab === 'worker' ? 'worker' : 'vite-spa', id, start, end: start + 100, ok });
    op(1, 1000, true);
    op(2, 5000, false);
    op(3, 20_000, false);
    op(4, 40_000, false, 'worker');
    Object.assign(journal.startFault('offline', TAB, 'vite-spa'), { start: 19_000, end: 25_000 });
    const costs = measureTabCosts(journal, { durationMs: 60_000, accessTokenTtlMs: 10_000 });
    expect(costs.map(({ figures }) => [figures.tab, figures.failedOutsideFaults])).toEqual([
      [TAB, 1],
      ['worker', 1],
    ]);
  });

  it('gives the draws of the timeline: each scheduled refresh with when it was due, each refresh on demand', () => {
    const journal = tabOnSchedule(10_000, [0, 2500, 0], ['proactive', 'proactive', 'expired-locally']);
    const [tab] = measureTabCosts(journal, { durationMs: 60_000, accessTokenTtlMs: 10_000 });
    expect(tab!.scheduled).toEqual([
      { trigger: 'proactive', due: 8500, asked: 8500, lateMs: 0 },
      { trigger: 'proactive', due: 17_050, asked: 19_550, lateMs: 2500 },
    ]);
    expect(tab!.onDemand.map((each) => each.trigger)).toEqual(['expired-locally']);
  });

  it('writes the figures for people: ms below a second, s from one, % of the lifetime', () => {
    const figures = figuresOf(tabOnSchedule(900_000, [12, 40, 1200]), { durationMs: HOUR, accessTokenTtlMs: 900_000 });
    expect(formatCosts(figures)).toEqual({
      refreshesPerHour: '3.0',
      pairsPerHour: '3.0',
      lateness: '40 ms / 1.2 s / 1.2 s (0.0 % / 0.1 % / 0.1 %)',
      onDemand: '0 of 3',
      onDemandShare: '0.0 %',
      failedOutsideFaults: '0',
    });
  });
});

describe("the soak's options", () => {
  it.each([
    [[], 10],
    [['--access-token-ttl', '900'], 900],
    [['--minutes', '120', '--access-token-ttl', '900', '--seed', '2'], 900],
  ])('reads the access tokens lifetime from %j: %i s', (argv, ttl) => {
    expect(parseOptions(argv).accessTokenTtl).toBe(ttl);
  });

  it.each([['0'], ['-5'], ['1.5'], ['ten']])('refuses --access-token-ttl %s', (value) => {
    expect(() => parseOptions(['--access-token-ttl', value])).toThrow(/--access-token-ttl takes a whole number/);
  });
});
