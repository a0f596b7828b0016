/** What a server has seen since it started or since `resetStats()`. */
export interface TestAuthServerStats {
  /** `loginWithEmailPassword` calls, successful or not. */
  loginCalls: number;
  /** `refreshToken` calls, whatever their outcome. */
  refreshCalls: number;
  /** `refreshToken` calls that rotated the pair. */
  refreshSuccesses: number;
  /** Refreshes with a spent refresh token: each revoked its session. */
  reuseDetections: number;
  /** `logout` calls, successful or not. */
  logoutCalls: number;
  /** `renameClub` calls that renamed a club: authenticated, the club visible to the user. A refused one is not counted. */
  renames: number;
  /** `register` calls, successful or not (a sign-in door beyond the contract, as are the five below). */
  registerCalls: number;
  /** `requestSignInCode` calls, for any e-mail. */
  requestSignInCodeCalls: number;
  /** `signInWithCode` calls, successful or not. */
  signInWithCodeCalls: number;
  /** `signIn` calls, successful or not, a `SecondFactorRequired` answer included. */
  signInCalls: number;
  /** `verifySecondFactor` calls, successful or not. */
  verifySecondFactorCalls: number;
  /** `signInWithIdToken` calls, successful or not. */
  signInWithIdTokenCalls: number;
  /** Count of TOKEN_EXPIRED errors sent. */
  tokenExpired: number;
  /** Every GraphQL POST (a batch counts once). */
  requests: number;
  /** The raw Authorization header of every GraphQL POST, '' when absent (the last 10 000). */
  authorizationHeaders: string[];
  /** Every token argument received by refreshToken, in order (the last 10 000). */
  refreshTokensSubmitted: string[];
  /** Every refresh token issued (by login, a sign-in door, refresh or `issueTokens`), in order (the last 10 000). */
  refreshTokensIssued: string[];
}

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
    renames: 0,
    registerCalls: 0,
    requestSignInCodeCalls: 0,
    signInWithCodeCalls: 0,
    signInCalls: 0,
    verifySecondFactorCalls: 0,
    signInWithIdTokenCalls: 0,
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
