import { jwtDecode } from 'jwt-decode';
import type { SessionEndedError } from '../errors/SessionEndedError';
import { getTokenSchedule, type TokenSchedule } from '../tokens/getTokenSchedule';
import { decodeAccessToken, type TokenClaims } from '../tokens/readTokenPair';
import type { TokenPair } from '../tokens/TokenPair';
import type { RecordRefresh } from './RecordRefresh';
import { readTokenUser, type UserReading } from './readTokenUser';
import type { TokenAuthState, TokenUser } from './TokenAuthState';

/**
 * One login and the pairs its refreshes bring: an operation replays only within the epoch it was sent in, and
 * an epoch, once ended, stays ended.
 */
export interface Epoch {
  /** Why it ended. */
  ended?: SessionEndedError;
}

/**
 * What an operation goes out with, as the links keep it in its context: the pair and its epoch, and, for an
 * operation that waited for that pair, when it began to wait (its replay's wait counts from then).
 */
export interface SentToken {
  readonly epoch: Epoch;
  readonly pair: TokenPair;
  readonly since?: number;
}

/**
 * The live session: one pair and what hangs on it, its refresh's facts (`RecordRefresh`) among them. A new pair means a new record, so a refresh cannot outlive
 * the pair it renews, and the backoff starts afresh with every rotation.
 */
export interface SessionRecord extends SentToken, RecordRefresh {
  readonly user: TokenUser;
  readonly schedule: TokenSchedule | null;
  /** A logout, or a login that replaced this record, revokes its newest pair itself. Written by the shell alone. */
  revoking?: boolean;
  /**
   * The service answered an operation sent with this pair's access token `TOKEN_EXPIRED` (or refused it as
   * unauthenticated): whatever the local clock says, the token is dead, and no operation goes out with it again.
   * Written by the shell alone.
   */
  refused?: boolean;
}

/** The options a record is read with. */
export interface RecordOptions extends UserReading {
  /** How long before expiry the proactive refresh is due (the `refreshLeadTime` option). */
  readonly refreshLeadTime: number;
}

/** What a record is made of: its pair, where it belongs, and what the login said of the user. */
export interface RecordSource {
  readonly pair: TokenPair;
  /** The epoch it starts or extends, or the record it follows: then the same user continues its epoch. */
  readonly into: Epoch | SessionRecord;
  /** What the login answer said of the user. */
  readonly known?: Partial<TokenUser> | undefined;
}

/** The state before anything is known: the store is being read, or a pair renewed. */
export const LOADING: TokenAuthState = { status: 'loading', user: null };
/** Nobody is signed in. */
export const SIGNED_OUT: TokenAuthState = { status: 'unauthenticated', user: null };

/**
 * A record for a pair: one received just now carries `receivedAt`; one from the store is timed by its `exp`. In
 * `into`, or, after a live record, in its epoch for the same user and in a new one for another.
 */
export function createRecord({ pair, into, known }: RecordSource, options: RecordOptions): SessionRecord {
  let claims: TokenClaims;
  try {
    claims = decodeAccessToken(pair.accessToken);
  } catch {
    // The refresh token may still be good: treat the access token as dead and renew the pair.
    claims = { exp: 0 };
  }
  const prior = 'pair' in into ? into : undefined;
  const read = (answer: Partial<TokenUser> | undefined) => readTokenUser(claims, answer, options);
  let user = read(known);
  const id = user.id || prior?.user.id || '';
  // An unknown user (a stored access token that could not be read) is taken to be the same one.
  const same = prior && (!prior.user.id || prior.user.id === id) ? prior : undefined;
  // A refresh's answer names nobody: what the sign-in said of the same user still holds.
  if (!known && same) user = read(same.user);
  return {
    epoch: prior ? (same?.epoch ?? {}) : (into as Epoch),
    pair,
    user: { ...user, id },
    schedule: getTokenSchedule(claims, options.refreshLeadTime, pair.receivedAt),
  };
}

/**
 * Whether the record's access token is dead: the service refused it, or the local clock at `now` says it expired.
 * An operation then waits for the next pair instead of going out with it.
 */
export function isDead(record: SessionRecord, now: number): boolean {
  return !!record.refused || (!!record.schedule && now >= record.schedule.expiresAt);
}

/**
 * A pair another session stored without its time of issue, that looks dead at `now`: the clocks disagree (a
 * pair just renewed is not dead), so it is timed from when it was seen, by its own lifetime.
 */
export function timeSeenPair(pair: TokenPair, now: number, options: RecordOptions): TokenPair {
  if (pair.receivedAt !== undefined) return pair;
  const probe = createRecord({ pair, into: {} }, options);
  return probe.schedule && isDead(probe, now) ? { ...pair, receivedAt: now } : pair;
}

/** The state a record shows. */
export function stateOf({ pair, user, schedule, retry, waiting }: SessionRecord): TokenAuthState {
  // No access token yet (a split store's, a token handler's restore): whether there is a session is not known.
  if (!pair.accessToken) return { ...LOADING, ...(retry && { retry }), ...(waiting && { waiting }) };
  return {
    status: 'authenticated',
    user,
    // The schedule is exactly { expiresAt, refreshAt }.
    ...schedule,
    ...(retry && { retry }),
    ...(waiting && { waiting }),
  };
}

/**
 * Why the refresh token of a record was refused: `expired` if its own `exp` (at `now`, corrected by the skew the
 * access token showed) has passed, or a token handler says so; any other refusal revokes it.
 */
export function rejectionOf(record: SessionRecord, cause: unknown, now: number): 'expired' | 'revoked' {
  if ((cause as { code?: unknown } | undefined)?.code === 'SESSION_EXPIRED') return 'expired';
  const { pair, user, schedule } = record;
  try {
    // A token handler's page holds no refresh token: the access token stands in for it.
    const { exp } = pair.refreshToken === pair.accessToken ? {} : jwtDecode<{ exp?: number }>(pair.refreshToken);
    const skew = schedule && user.claims.exp ? schedule.expiresAt - user.claims.exp * 1000 : 0;
    // Within 2 s: the skew is known to a second (`iat` and `exp` are whole seconds) plus a round trip.
    if (exp! * 1000 + skew <= now + 2_000) return 'expired';
  } catch {
    // An opaque refresh token says nothing of its life.
  }
  return 'revoked';
}
