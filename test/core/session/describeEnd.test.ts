import { describe, expect, it } from 'vitest';
import { AuthRejectedError } from '../../../src/core/errors/AuthRejectedError';
import { AuthRequestError } from '../../../src/core/errors/AuthRequestError';
import { describeEnd } from '../../../src/core/session/describeEnd';
import { createRecord, type SessionRecord } from '../../../src/core/session/SessionRecord';
import { makePair } from '../../helpers/jwt';

const NOW = Date.UTC(2026, 0, 1, 12);
const options = { roleClaim: 'role', refreshLeadTime: 150_000 };
const signedIn = (): SessionRecord => createRecord({ pair: makePair('p1', { now: NOW }), into: {} }, options);

describe('describeEnd: what the end of a session comes to', () => {
  it('a logout here is remembered and told, not elsewhere', () => {
    const outcome = describeEnd(signedIn(), { reason: 'logout' }, NOW);
    expect(outcome.signedOut).toEqual({ status: 'unauthenticated', user: null });
    expect(outcome.event).toEqual({ reason: 'logout', elsewhere: false });
    expect(outcome.remember).toEqual({ ended: { reason: 'logout', elsewhere: false, at: NOW } });
  });

  it("a refusal keeps the server's words and shows the error", () => {
    const refusal = new AuthRejectedError('Refresh token revoked', 'refreshToken', []);
    const outcome = describeEnd(signedIn(), { reason: 'rejected', cause: refusal }, NOW);
    expect(outcome.signedOut.error).toBe(outcome.error);
    expect(outcome.event).toMatchObject({ reason: 'rejected', rejection: 'revoked', message: 'Refresh token revoked' });
  });

  it('a login here that replaces the session clears how the last one ended', () => {
    const outcome = describeEnd(signedIn(), { reason: 'replaced', next: signedIn() }, NOW);
    expect(outcome.remember).toEqual({ ended: undefined });
    expect(outcome.event).toEqual({ reason: 'replaced', elsewhere: false });
  });

  it('a session that never had a pair tells nobody, and a token-handler page without a token remembers nothing', () => {
    const never = describeEnd(null, { reason: 'logout' }, NOW);
    expect([never.event, never.remember]).toEqual([undefined, undefined]);
    const page = createRecord({ pair: { accessToken: '', refreshToken: '' }, into: {} }, options);
    expect(describeEnd(page, { reason: 'logout' }, NOW).remember).toBeUndefined();
    expect(describeEnd(signedIn(), { reason: 'no-session' }, NOW).event).toBeUndefined();
  });

  it("no session, for a refusal of the server's cookie at a page load, shows no error: a first visit", () => {
    const page = createRecord({ pair: { accessToken: '', refreshToken: 'cookie' }, into: {} }, options);
    const refusal = new AuthRejectedError('Refresh token missing', 'refresh', []);
    expect(describeEnd(page, { reason: 'no-session', cause: refusal }, NOW).signedOut).toEqual({
      status: 'unauthenticated',
      user: null,
    });
    // Why no session could be had at all (a handler that refuses the page's origin) is shown.
    const forbidden = new AuthRequestError('refresh failed with HTTP 403', 'refresh', 403);
    expect(describeEnd(page, { reason: 'no-session', cause: forbidden }, NOW).signedOut.error).toBe(forbidden);
  });
});
