import { describe, it } from 'vitest';
import { checkRole } from '../../src/doctor/checkRole';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { expectFinding } from './expectFinding';

describe('checkRole: the role claim, or the claim that holds the role', () => {
  it.each([
    ['a role claim', { role: 'ADMIN' }, 'ok', 'role is "ADMIN".', undefined],
    [
      'the role under another name',
      { sub: 'u_1', userRole: 'ADMIN' },
      'warn',
      "No role claim, but userRole: set `roleClaim: 'userRole'`.",
      "Set `roleClaim: 'userRole'`: the role is in that claim.",
    ],
    [
      'a role that is no string, beside one under another name',
      { role: 1, 'https://example.com/roles': ['ADMIN'] },
      'warn',
      "No role claim, but https://example.com/roles: set `roleClaim: 'https://example.com/roles'`.",
      "Set `roleClaim: 'https://example.com/roles'`: the role is in that claim.",
    ],
    ['no role anywhere', { sub: 'u_1' }, 'warn', 'No role claim: useAuth().user.role will be undefined', undefined],
  ])('%s', (_name, claims, status, detail, advice) => {
    expectFinding(checkRole(claims), DOCTOR_CHECKS.role, { status, detail, advice });
  });
});
