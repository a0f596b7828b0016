import { describe, expect, it } from 'vitest';
import { AuthRejectedError } from '../../../src/core/errors/AuthRejectedError';
import { AuthRequestError } from '../../../src/core/errors/AuthRequestError';
import {
  createRecord,
  type Epoch,
  isDead,
  LOADING,
  rejectionOf,
  type RecordOptions,
  type SessionRecord,
  SIGNED_OUT,
  stateOf,
  timeSeenPair,
} from '../../../src/core/session/SessionRecord';
import type { TokenPair } from '../../../src/core/tokens/TokenPair';
import { makeJwt } from '../../helpers/jwt';
import { TIME } from '../../helpers/session';

const { T0, MINUTE } = TIME;
const options: RecordOptions = { refreshLeadTime: MINUTE, roleClaim: 'role' };
/** T0 in the whole seconds of a JWT's claims. */
const S0 = T0 / 1000;

/** A pair of u_1 whose access token carries `claims`: issued at T0 and living 15 minutes unless they say otherwise. */
function pairOf(claims: Record<string, unknown>, receivedAt?: number, refreshToken = 'refresh-1'): TokenPair {
  const accessToken = makeJwt({ sub: 'u_1', iat: S0, exp: S0 + 900, ...claims });
  return { accessToken, refreshToken, ...(receivedAt !== undefined && { receivedAt }) };
}

/** A record of a pair received at T0 with `claims`, with more fields of the record. */
const recordOf = (claims: Record<string, unknown> = {}, fields: Partial<SessionRecord> = {}): SessionRecord => ({
  ...createRecord({ pair: pairOf(claims, T0), into: {} }, options),
  ...fields,
});

describe('createRecord: the record of a pair', () => {
  it.each([
    [
      'a pair received now is timed from then by its lifetime, the lead time before its end',
      pairOf({}, T0 + 5_000),
      { expiresAt: T0 + 5_000 + 900_000, refreshAt: T0 + 5_000 + 840_000 },
    ],
    [
      'a pair from the store (no receivedAt) is timed by its exp',
      pairOf({ iat: S0 - 600, exp: S0 + 300 }),
      { expiresAt: T0 + 300_000, refreshAt: T0 + 240_000 },
    ],
    [
      "a pair received from a server an hour ahead is timed by the local clock, not by the server's exp",
      pairOf({ iat: S0 + 3_600, exp: S0 + 4_500 }, T0),
      { expiresAt: T0 + 900_000, refreshAt: T0 + 840_000 },
    ],
    ['an access token without exp has no schedule', pairOf({ exp: undefined }, T0), null],
    [
      'an access token that cannot be read is dead: exp 0 from the store',
      { accessToken: 'not-a-jwt', refreshToken: 'refresh-1' },
      { expiresAt: 0, refreshAt: -MINUTE },
    ],
    [
      'an access token that cannot be read, received now, has no schedule',
      { accessToken: 'not-a-jwt', refreshToken: 'refresh-1', receivedAt: T0 },
      null,
    ],
  ])('%s', (_name, pair, schedule) => {
    expect(createRecord({ pair, into: {} }, options).schedule).toEqual(schedule);
  });

  it.each([
    [
      'from the claims: sub, email and the role claim',
      { email: 'a@b.test', role: 'ADMIN' },
      undefined,
      { id: 'u_1', email: 'a@b.test', role: 'ADMIN', roles: ['ADMIN'] },
    ],
    [
      "the login's answer names the id and email; the role claim wins over the answer's role",
      { email: 'a@b.test', role: 'ADMIN' },
      { id: 'u_9', email: 'k@b.test', role: 'USER' },
      { id: 'u_9', email: 'k@b.test', role: 'ADMIN', roles: ['ADMIN'] },
    ],
    [
      "the answer's roles, where the token has no role claim",
      {},
      { roles: ['EDITOR', 'USER'] },
      { id: 'u_1', role: 'EDITOR', roles: ['EDITOR', 'USER'] },
    ],
    ['nobody named: the id is empty', { sub: undefined }, undefined, { id: '', role: undefined, roles: [] }],
  ])('reads the user %s', (_name, claims, known, user) => {
    const pair = pairOf(claims, T0);
    const record = createRecord({ pair, into: {}, known }, options);
    expect(record.user).toEqual({ ...user, claims: expect.objectContaining({ iat: S0 }) });
  });

  it("reads the user with the app's readUser", () => {
    const readUser = (claims: Record<string, unknown>, answer: Readonly<Record<string, unknown>> | undefined) => ({
      id: claims['uid'] as string,
      role: answer?.['isAdmin'] ? 'ADMIN' : 'USER',
    });
    const record = createRecord(
      { pair: pairOf({ uid: 7 }, T0), into: {}, known: { isAdmin: true } as never },
      {
        ...options,
        readUser,
      },
    );
    expect(record.user).toMatchObject({ id: '7', role: 'ADMIN', roles: ['ADMIN'] });
  });

  it('starts the record in the epoch it is given, with its pair', () => {
    const epoch: Epoch = {};
    const pair = pairOf({}, T0);
    const record = createRecord({ pair, into: epoch }, options);
    expect(record.epoch).toBe(epoch);
    expect(record.pair).toBe(pair);
  });

  /** A record of u_1, signed in with what its login's answer said, to follow. */
  const signedIn = () =>
    createRecord({ pair: pairOf({}, T0), into: {}, known: { email: 'a@b.test', role: 'ADMIN' } }, options);

  it.each([
    ['the same user', { sub: 'u_1' }, true, 'u_1'],
    ['a pair whose access token names nobody: taken to be the same user', { sub: undefined }, true, 'u_1'],
    ['another user', { sub: 'u_2' }, false, 'u_2'],
  ])('after a record, continues its epoch for %s, and starts a new one otherwise', (_name, claims, same, id) => {
    const prior = signedIn();
    const record = createRecord({ pair: pairOf(claims, T0 + MINUTE, 'refresh-2'), into: prior }, options);
    expect(record.epoch === prior.epoch).toBe(same);
    expect(record.epoch).toEqual({});
    expect(record.user.id).toBe(id);
  });

  it('after a record whose user is unknown (its access token could not be read), continues its epoch', () => {
    const prior = createRecord({ pair: { accessToken: 'not-a-jwt', refreshToken: 'refresh-1' }, into: {} }, options);
    const record = createRecord({ pair: pairOf({}, T0, 'refresh-2'), into: prior }, options);
    expect(record.epoch).toBe(prior.epoch);
    expect(record.user.id).toBe('u_1');
  });

  it("after a record, an answer and a pair that name nobody keep the record's user id", () => {
    const known = { email: 'new@b.test' };
    const record = createRecord(
      { pair: pairOf({ sub: undefined }, T0, 'refresh-2'), into: signedIn(), known },
      options,
    );
    expect(record.user).toMatchObject({ id: 'u_1', email: 'new@b.test' });
  });

  it('after a record of the same user, a refresh (no answer) keeps what the sign-in said of the user', () => {
    const record = createRecord({ pair: pairOf({}, T0 + MINUTE, 'refresh-2'), into: signedIn() }, options);
    expect(record.user).toMatchObject({ id: 'u_1', email: 'a@b.test', role: 'ADMIN', roles: ['ADMIN'] });
  });

  it('after a record of the same user, a new answer replaces what the sign-in said', () => {
    const known = { email: 'new@b.test', role: 'USER' };
    const record = createRecord({ pair: pairOf({}, T0 + MINUTE, 'refresh-2'), into: signedIn(), known }, options);
    expect(record.user).toMatchObject({ id: 'u_1', email: 'new@b.test', role: 'USER' });
  });

  it('after a record of another user, keeps nothing the sign-in said of the first', () => {
    const record = createRecord({ pair: pairOf({ sub: 'u_2' }, T0 + MINUTE, 'refresh-2'), into: signedIn() }, options);
    expect(record.user).toEqual({ id: 'u_2', role: undefined, roles: [], claims: expect.any(Object) });
  });
});

describe('isDead: whether an operation may go out with the access token', () => {
  // Received at T0 from a server an hour ahead: it dies 15 minutes after T0 by the local clock, whatever its exp.
  const ahead = createRecord({ pair: pairOf({ iat: S0 + 3_600, exp: S0 + 4_500 }, T0), into: {} }, options);
  const stored = createRecord({ pair: pairOf({ iat: S0 - 600, exp: S0 + 300 }), into: {} }, options);
  const unscheduled = createRecord({ pair: pairOf({ exp: undefined }, T0), into: {} }, options);

  it.each([
    ['a millisecond before its end', recordOf(), T0 + 899_999, false],
    ['at its end', recordOf(), T0 + 900_000, true],
    ['after its end', recordOf(), T0 + 900_001, true],
    ['refused by the service, though its clock says it lives', { ...recordOf(), refused: true }, T0, true],
    ['from a server an hour ahead, a millisecond before its end by the local clock', ahead, T0 + 899_999, false],
    ['from a server an hour ahead, at its end by the local clock, long before its exp', ahead, T0 + 900_000, true],
    ['from the store, a millisecond before its exp', stored, T0 + 299_999, false],
    ['from the store, at its exp', stored, T0 + 300_000, true],
    ['without a schedule, whenever', unscheduled, T0 + 100 * MINUTE, false],
  ])('%s', (_name, record, now, dead) => {
    expect(isDead(record, now)).toBe(dead);
  });
});

describe('timeSeenPair: a pair another session stored, seen at `now`', () => {
  // Received 20 minutes ago, with 15 minutes to live: dead, but timed already.
  const received = pairOf({}, T0 - 20 * MINUTE);
  // Its exp was 20 minutes before T0: by this clock it died on arrival, so the clocks disagree.
  const deadByExp = pairOf({ iat: S0 - 35 * 60, exp: S0 - 20 * 60 });
  const aliveByExp = pairOf({ iat: S0 - 60, exp: S0 + 840 });
  const withoutExp = pairOf({ exp: undefined });

  it.each([
    ['with its time of issue, dead: as it is', received, false],
    ['alive by its exp: as it is', aliveByExp, false],
    ['without exp: as it is', withoutExp, false],
    ['dead by its exp: timed from now', deadByExp, true],
  ])('%s', (_name, pair, timed) => {
    const seen = timeSeenPair(pair, T0, options);
    expect(seen).toEqual(timed ? { ...pair, receivedAt: T0 } : pair);
    expect(seen === pair).toBe(!timed);
  });

  it('times a pair dead by its exp by its own lifetime, from when it was seen', () => {
    const seen = timeSeenPair(deadByExp, T0, options);
    expect(isDead(createRecord({ pair: seen, into: {} }, options), T0 + 899_999)).toBe(false);
    expect(isDead(createRecord({ pair: seen, into: {} }, options), T0 + 900_000)).toBe(true);
  });
});

describe('stateOf: the state a record shows', () => {
  const failure = new AuthRequestError('refreshToken failed.', 'refreshToken');
  const retry = { at: T0 + 5_000, error: failure, attempt: 2 };
  const waiting = { at: T0 + 3_000, trigger: 'manual' as const };
  const user = recordOf().user;
  const authenticated = { status: 'authenticated', user, expiresAt: T0 + 900_000, refreshAt: T0 + 840_000 };
  const noAccessToken = (fields: Partial<SessionRecord> = {}) =>
    recordOf({}, { pair: { accessToken: '', refreshToken: 'refresh-1' }, ...fields });

  it.each([
    ['a pair: authenticated, with its schedule', recordOf(), authenticated],
    ['a refresh of it in flight: the same', recordOf({}, { refreshing: Promise.resolve() }), authenticated],
    ['a retry waits: authenticated, with the retry', recordOf({}, { retry }), { ...authenticated, retry }],
    [
      'a refresh waits for the floor: authenticated, with the wait',
      recordOf({}, { waiting }),
      { ...authenticated, waiting },
    ],
    ['no schedule: authenticated, without times', { ...recordOf(), schedule: null }, { status: 'authenticated', user }],
    ['no access token yet: loading', noAccessToken(), LOADING],
    ['no access token, a retry waits: loading, with the retry', noAccessToken({ retry }), { ...LOADING, retry }],
    ['no access token, a refresh waits: loading, with the wait', noAccessToken({ waiting }), { ...LOADING, waiting }],
  ])('%s', (_name, record, state) => {
    expect(stateOf(record)).toStrictEqual(state);
  });

  it.each([
    ['LOADING', LOADING, { status: 'loading', user: null }],
    ['SIGNED_OUT', SIGNED_OUT, { status: 'unauthenticated', user: null }],
  ])('%s is the state before anything is known / when nobody is signed in', (_name, state, expected) => {
    expect(state).toStrictEqual(expected);
  });
});

describe("rejectionOf: why a record's refresh token was refused", () => {
  const refusal = (code: string) =>
    new AuthRejectedError(code, 'refreshToken', [{ message: code, extensions: { code } }]);
  const refused = refusal('INVALID_REFRESH_TOKEN');
  const expiredCode = refusal('SESSION_EXPIRED');
  /** A record received at T0 whose refresh token expires at `exp` (seconds), from a server `ahead` s ahead. */
  const withRefreshExp = (exp: number | undefined, ahead = 0) => {
    const refreshToken = makeJwt({ sub: 'u_1', ...(exp !== undefined && { exp }) });
    const pair = pairOf({ iat: S0 + ahead, exp: S0 + ahead + 900 }, T0, refreshToken);
    return createRecord({ pair, into: {} }, options);
  };
  const opaque = recordOf();
  const handlerPage = { ...opaque, pair: { ...opaque.pair, refreshToken: opaque.pair.accessToken } };

  it.each([
    ['a token handler says the session expired', opaque, expiredCode, T0, 'expired'],
    ['an opaque refresh token says nothing of its life', opaque, refused, T0 + 1_000 * MINUTE, 'revoked'],
    ['a refresh token without exp', withRefreshExp(undefined), refused, T0, 'revoked'],
    ["a token handler's page (no refresh token), however late", handlerPage, refused, T0 + 1_000 * MINUTE, 'revoked'],
    ['its exp more than 2 s ahead', withRefreshExp(S0 + 30), refused, T0 + 27_999, 'revoked'],
    ['its exp 2 s ahead: within the margin', withRefreshExp(S0 + 30), refused, T0 + 28_000, 'expired'],
    ['its exp passed', withRefreshExp(S0 + 30), refused, T0 + 31_000, 'expired'],
    [
      'from a server an hour ahead, its exp passed by the corrected clock',
      withRefreshExp(S0 + 3_630, 3_600),
      refused,
      T0 + 28_000,
      'expired',
    ],
    [
      'from a server an hour ahead, its exp still ahead by the corrected clock',
      withRefreshExp(S0 + 3_630, 3_600),
      refused,
      T0 + 27_999,
      'revoked',
    ],
    [
      'from a server an hour behind, its exp passed by the server clock, not by the corrected one',
      withRefreshExp(S0 - 3_570, -3_600),
      refused,
      T0 + 27_999,
      'revoked',
    ],
    ['no cause at all', opaque, undefined, T0, 'revoked'],
  ])('%s', (_name, record, cause, now, rejection) => {
    expect(rejectionOf(record, cause, now)).toBe(rejection);
  });
});
