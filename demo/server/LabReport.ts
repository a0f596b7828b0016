/**
 * What the lab counts for one session (one sign-in, by the login or a door, and the pairs that descend from it), or
 * for all of them.
 */
export interface LabCounts {
  /** GraphQL requests other than sign-ins (the login and the sign-in doors), refresh and logout. */
  requests: number;
  refreshes: number;
  /** Refreshes that rotated the pair. */
  refreshSuccesses: number;
  /** Spent refresh tokens presented again: each revoked its session. */
  reuseDetections: number;
  logouts: number;
  /** TOKEN_EXPIRED answers, from the server's own expiry and from "expire mine". */
  tokenExpired: number;
  /** Answers of 503 while the server was down. */
  unavailable: number;
}

/** One session as the lab saw it. */
export interface LabSession extends LabCounts {
  /** The session id (`sid` of its tokens). */
  readonly sid: string;
  readonly email: string;
  /** `active`, or how it ended: `logged out`, `revoked` (mine or all), `reuse` (a spent refresh token came back). */
  status: 'active' | 'logged out' | 'revoked' | 'reuse';
  /** The last 6 characters of the `jti` of the newest access token issued to it. */
  accessId: string;
}

/** `GET /control/lab`: the totals, every session, and the faults switched on now. */
export interface LabReport {
  /** `logins`: sessions begun, by the login or a sign-in door; `failedLogins`: a wrong password or code. */
  readonly totals: LabCounts & { logins: number; failedLogins: number };
  readonly sessions: readonly LabSession[];
  /** Until when (ms since the epoch) the server answers 503, when it is down. */
  readonly downUntil?: number;
  /** The delay of each refresh, in ms (0: none). */
  readonly refreshDelay: number;
  /** Whether the access token of a dead session is refused as most servers do: "Not authenticated", no code. */
  readonly plainRefusals: boolean;
}
