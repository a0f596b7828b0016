import { describe, it } from 'vitest';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { judgeReuseRefusal } from '../../src/doctor/judgeReuseRefusal';
import type { GraphQLAnswer } from '../../src/doctor/postGraphQL';
import { expectFinding } from './expectFinding';

const refused = (message: string, code?: string): GraphQLAnswer => ({
  status: 200,
  data: null,
  errors: [{ message, extensions: code ? { code } : {} }],
});

describe('judgeReuseRefusal: what the package makes of the refusal of a spent refresh token', () => {
  it.each([
    ['UNAUTHENTICATED: ended at once', refused('Refresh token reused', 'UNAUTHENTICATED'), 'the code UNAUTHENTICATED'],
    [
      "INTERNAL_SERVER_ERROR with words of a refused token (Apollo Server's): ended at once",
      refused('Invalid refresh token', 'INTERNAL_SERVER_ERROR'),
      'the package ends such a session at once, since those words speak of a refused token',
    ],
    [
      "no code (Yoga's): ended at once",
      refused('Invalid refresh token'),
      'no code ("Invalid refresh token"): the package ends such a session at once,',
    ],
    [
      'INTERNAL_SERVER_ERROR with other words: ended after 3 refreshes',
      refused('Something broke', 'INTERNAL_SERVER_ERROR'),
      'ends after 3 refreshes answered so',
    ],
    [
      'a code the package takes as an outage: never ended',
      refused('Try later', 'SERVICE_UNAVAILABLE'),
      'a code the package takes as an outage',
    ],
  ])('%s', (_name, reused, advice) => {
    expectFinding(judgeReuseRefusal(reused), DOCTOR_CHECKS.singleUse, {
      status: 'ok',
      detail: `Refused: "${reused.errors[0]!.message}"`,
      advice,
    });
  });
});
