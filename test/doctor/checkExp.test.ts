import { describe, it } from 'vitest';
import { checkExp } from '../../src/doctor/checkExp';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { expectFinding } from './expectFinding';

describe('checkExp: the access token expires in seconds', () => {
  it.each([
    ['exp in seconds', { exp: 1_795_540_738 }, 'ok', 'exp is 1795540738.', undefined],
    ['no exp', {}, 'fail', 'The token has no numeric exp', undefined],
    ['exp as a string', { exp: '1795540738' }, 'fail', 'The token has no numeric exp', undefined],
    ['exp at the bound, still seconds', { exp: 1e11 }, 'ok', 'exp is 100000000000.', undefined],
    [
      'exp in milliseconds',
      { exp: 1_795_540_738_000 },
      'fail',
      'exp is 1795540738000: milliseconds',
      'Write `exp` (and `iat`) in seconds',
    ],
  ])('%s', (_name, claims, status, detail, advice) => {
    expectFinding(checkExp(claims), DOCTOR_CHECKS.exp, { status, detail, advice });
  });
});
