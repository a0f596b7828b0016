import type { TestAuthServerStats } from './createTestAuthServer';

/** How many entries each of the stats' arrays keeps (the most recent ones). */
export const STATS_HISTORY_LIMIT = 10_000;

/** The stats of a fresh server: all zero and empty. */
export function emptyStats(): TestAuthServerStats {
  return {
    loginCalls: 0,
    refreshCalls: 0,
    refreshSuccesses: 0,
    reuseDetections: 0,
    logoutCalls: 0,
    tokenExpired: 0,
    requests: 0,
    authorizationHeaders: [],
    refreshTokensSubmitted: [],
    refreshTokensIssued: [],
  };
}

/** Zeroes `stats` in place, so references held by tests stay live. */
export function clearStats(stats: TestAuthServerStats): void {
  const { authorizationHeaders, refreshTokensSubmitted, refreshTokensIssued } = stats;
  for (const history of [authorizationHeaders, refreshTokensSubmitted, refreshTokensIssued]) history.length = 0;
  Object.assign(stats, emptyStats(), { authorizationHeaders, refreshTokensSubmitted, refreshTokensIssued });
}

/** Appends `entry`, dropping the oldest entries beyond {@link STATS_HISTORY_LIMIT}. */
export function pushBounded(history: string[], entry: string): void {
  history.push(entry);
  if (history.length > STATS_HISTORY_LIMIT) history.splice(0, history.length - STATS_HISTORY_LIMIT);
}

/** The stats as `GET /control/stats` reports them: counters only, plus the number of requests seen. */
export function statsSummary(stats: TestAuthServerStats): Record<string, number> {
  const { authorizationHeaders, refreshTokensSubmitted: _submitted, refreshTokensIssued: _issued, ...counters } = stats;
  return { ...counters, authorizationHeaders: authorizationHeaders.length };
}
