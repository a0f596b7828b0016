import { describe, expect, it } from 'vitest';
import { AuthRejectedError } from '../../../src/core/errors/AuthRejectedError';
import { AuthRequestError } from '../../../src/core/errors/AuthRequestError';
import { SessionEndedError } from '../../../src/core/errors/SessionEndedError';
import { judgeRefreshFailure } from '../../../src/core/session/judgeRefreshFailure';
import { REFUSALS } from '../../../src/core/session/sessionLimits';

const pair = { accessToken: 'a', refreshToken: 'r' };
const handlerPage = { accessToken: '', refreshToken: '' };
const outage = new AuthRequestError('refreshToken failed on the network.', 'refreshToken');
const refused = new AuthRejectedError('Invalid refresh token', 'refreshToken', []);
const uncertain = new AuthRejectedError('Not authenticated', 'refreshToken', [], { uncertain: true });
const noSession = new SessionEndedError('no-session');
const loggedOut = new SessionEndedError('logout', 'cause');

describe('judgeRefreshFailure: what a failed refresh comes to', () => {
  it.each([
    ['no verdict: retried', outage, 0, pair, { retry: true }],
    ['a refusal: the session ends as rejected', refused, 0, pair, { retry: false, reason: 'rejected', cause: refused }],
    ['an uncertain refusal, the first: retried', uncertain, 1, pair, { retry: true }],
    [
      `an uncertain refusal, the ${REFUSALS}th in a row: rejected`,
      uncertain,
      REFUSALS,
      pair,
      { retry: false, reason: 'rejected', cause: uncertain },
    ],
    [
      'a token handler logged out elsewhere: logout',
      loggedOut,
      0,
      pair,
      { retry: false, reason: 'logout', cause: 'cause' },
    ],
    [
      'no session on a page that has no token yet: no-session',
      noSession,
      0,
      handlerPage,
      { retry: false, reason: 'no-session', cause: undefined },
    ],
    ['no session in mid-session: rejected', noSession, 0, pair, { retry: false, reason: 'rejected', cause: undefined }],
  ] as const)('%s', (_name, error, refusals, from, expected) => {
    expect(judgeRefreshFailure(error, { refusals, pair: from })).toEqual(expected);
  });
});
