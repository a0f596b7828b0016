import { describe, expect, it } from 'vitest';
import { AuthRequestError } from '../../../src/core/errors/AuthRequestError';
import { SessionEndedError } from '../../../src/core/errors/SessionEndedError';
import { afterJoin, beforeJoin } from '../../../src/core/session/operationWait';
import { REFRESH_TRIGGERS } from '../../../src/core/session/refreshTriggers';
import type { Epoch, SessionRecord } from '../../../src/core/session/SessionRecord';

const failure = new AuthRequestError('refreshToken failed.', 'refreshToken');
const pair = { accessToken: 'a', refreshToken: 'r' };
const user = { id: 'u_1', role: 'USER', claims: {} };
const record = (epoch: Epoch, fields: Partial<SessionRecord> = {}): SessionRecord => ({
  epoch,
  pair,
  user,
  schedule: null,
  ...fields,
});
const epoch: Epoch = {};
const withRetryAt = (at: number | undefined) => record(epoch, { retry: { at, error: failure, attempt: 1 } });

describe('beforeJoin: an operation meets a scheduled retry', () => {
  const op = REFRESH_TRIGGERS['token-expired'];
  it.each([
    ['no retry scheduled: join the refresh', op, record(epoch), true, { do: 'join' }],
    [
      'a retry due within 10 s of the wait: sleep until it',
      op,
      withRetryAt(9_000),
      true,
      { do: 'sleep', until: 9_000 },
    ],
    [
      'a retry due past 10 s: fail with what it waits out',
      op,
      withRetryAt(10_001),
      true,
      { do: 'fail', error: failure },
    ],
    ['offline, the retry has no time: fail', op, withRetryAt(undefined), true, { do: 'fail', error: failure }],
    ['already slept once: fail', op, withRetryAt(1_000), false, { do: 'fail', error: failure }],
    [
      'a check never waits for a retry',
      REFRESH_TRIGGERS.check,
      withRetryAt(1_000),
      false,
      { do: 'fail', error: failure },
    ],
    ['the app asks: refresh anyway', REFRESH_TRIGGERS.manual, withRetryAt(60_000), false, { do: 'join' }],
    ['the retry itself: refresh', REFRESH_TRIGGERS.retry, withRetryAt(0), false, { do: 'join' }],
  ])('%s', (_name, kind, from, patient, expected) => {
    expect(beforeJoin({ kind, from, patient, since: 0 })).toEqual(expected);
  });

  it('joins a refresh already out, whatever the retry says', () => {
    const from = record(epoch, { retry: { at: 60_000, error: failure, attempt: 1 }, refreshing: Promise.resolve() });
    expect(beforeJoin({ kind: op, from, patient: false, since: 0 })).toEqual({ do: 'join' });
  });
});

describe('afterJoin: what the wait comes to once its join settled', () => {
  const base = { patient: false, disposed: undefined, operationWait: 21_000 };
  const ended = new SessionEndedError('logout');

  it('takes the successor in the same epoch', () => {
    const from = record(epoch);
    const next = record(epoch, { pair: { accessToken: 'b', refreshToken: 's' } });
    expect(afterJoin({ ...base, from, live: next })).toEqual({ do: 'take', record: next });
  });

  it('fails with why the epoch ended when the session ended or another user took over', () => {
    const from = record({ ended });
    expect(afterJoin({ ...base, from, live: null })).toEqual({ do: 'fail', error: ended });
    expect(afterJoin({ ...base, from, live: record({}) })).toEqual({ do: 'fail', error: ended });
  });

  it('fails with no-session for an epoch that ended without a word', () => {
    const step = afterJoin({ ...base, from: record({}), live: null });
    expect(step.do === 'fail' && SessionEndedError.is(step.error) && step.error.reason).toBe('no-session');
  });

  it("fails with the operation's bound, in seconds, when the refresh is still out", () => {
    const from = record(epoch, { refreshing: new Promise(() => {}) });
    const step = afterJoin({ ...base, from, live: from, operationWait: 61_000 });
    expect(step.do === 'fail' && (step.error as Error).message).toBe('Waited 61 s for a new access token.');
  });

  it('tries once more when the refresh failed without a verdict and the operation may still wait', () => {
    const from = withRetryAt(5_000);
    expect(afterJoin({ ...base, from, live: from, patient: true })).toEqual({ do: 'again' });
    expect(afterJoin({ ...base, from, live: from, patient: false })).toEqual({ do: 'fail', error: failure });
  });

  it('fails with the reason of a dispose before anything else', () => {
    const disposed = new AuthRequestError('The session was disposed.', 'dispose');
    const from = record(epoch);
    expect(afterJoin({ ...base, from, live: record(epoch), disposed })).toEqual({ do: 'fail', error: disposed });
  });
});
