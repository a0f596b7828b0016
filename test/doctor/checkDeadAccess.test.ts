import { describe, it } from 'vitest';
import { checkDeadAccess } from '../../src/doctor/checkDeadAccess';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import type { GraphQLAnswer } from '../../src/doctor/postGraphQL';
import { expectFinding } from './expectFinding';

const refused = (message: string, code?: string, status = 200): GraphQLAnswer => ({
  status,
  data: null,
  errors: [{ message, extensions: code ? { code } : {} }],
});

describe("checkDeadAccess: whether a revoked session would be noticed, from how a dead session's access token is refused", () => {
  it.each([
    ['no answer: an outage', { errors: [], failure: 'did not answer within 300 ms' }, 'warn', 'an outage', undefined],
    ['HTTP 502: an outage', refused('Bad gateway', undefined, 502), 'warn', 'an outage', undefined],
    ['HTTP 401: at once', refused('Unauthorized', undefined, 401), 'ok', 'the package refreshes once', undefined],
    ['UNAUTHENTICATED: at once', refused('Not authenticated', 'UNAUTHENTICATED'), 'ok', 'refreshes once', undefined],
    ['TOKEN_EXPIRED: at once', refused('Token expired', 'TOKEN_EXPIRED'), 'ok', 'refreshes once', undefined],
    [
      'no code, but words of a refused session: at once',
      refused('Session revoked'),
      'ok',
      'checks it with a refresh at once',
      undefined,
    ],
    [
      "INTERNAL_SERVER_ERROR with words of a refused session (Apollo Server's): at once",
      refused('Not authenticated', 'INTERNAL_SERVER_ERROR'),
      'ok',
      'checks it with a refresh at once',
      undefined,
    ],
    [
      'no code and no such words: within a minute',
      refused('Access denied'),
      'warn',
      'noticed within a minute',
      'set `isUnauthenticatedError` to return true for it.',
    ],
    [
      'a code the package passes on: never',
      refused('Access denied', 'FORBIDDEN'),
      'fail',
      'would go unnoticed until its next refresh',
      "each.extensions?.code === 'FORBIDDEN'",
    ],
  ])('%s', (_name, answer, status, detail, advice) => {
    expectFinding(checkDeadAccess(answer), DOCTOR_CHECKS.deadAccess, { status, detail, advice });
  });
});
