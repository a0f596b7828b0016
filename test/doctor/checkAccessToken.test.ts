import { describe, expect, it } from 'vitest';
import { checkAccessToken } from '../../src/doctor/checkAccessToken';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { makeJwt } from '../helpers/jwt';

const iat = 1_795_540_000;
const received = iat * 1000;
// An access token whose claims are JSON's null ("bnVsbA" is "null" in base64url): it decodes, to no claims.
const NULL_CLAIMS = 'eyJhbGciOiJIUzI1NiJ9.bnVsbA.c2lnbmF0dXJl';
const { jwt, exp, lifetime, clock, role } = DOCTOR_CHECKS;

describe("checkAccessToken: the access token's claims, in the order the report shows them", () => {
  it.each([
    [
      "the contract's token",
      makeJwt({ sub: 'u_1', role: 'USER', iat, exp: iat + 900 }),
      [
        [jwt, 'ok'],
        [exp, 'ok'],
        [lifetime, 'ok'],
        [clock, 'ok'],
        [role, 'ok'],
      ],
      900,
    ],
    [
      'no iat: no lifetime, and no clock to compare',
      makeJwt({ sub: 'u_1', role: 'USER', exp: iat + 900 }),
      [
        [jwt, 'ok'],
        [exp, 'ok'],
        [lifetime, 'not checked'],
        [role, 'ok'],
      ],
      undefined,
    ],
    [
      'exp in milliseconds: no lifetime, and no clock to compare',
      makeJwt({ sub: 'u_1', role: 'USER', iat, exp: (iat + 900) * 1000 }),
      [
        [jwt, 'ok'],
        [exp, 'fail'],
        [lifetime, 'not checked'],
        [role, 'ok'],
      ],
      undefined,
    ],
    ['no JWT', 'an-opaque-access-token', [[jwt, 'fail']], undefined],
    ['a JWT whose claims are null', NULL_CLAIMS, [[jwt, 'fail']], undefined],
  ] as const)('%s', (_name, accessToken, expected, expectedLifetime) => {
    const result = checkAccessToken(accessToken, received);
    expect(result.findings.map(({ check }) => [check.title, check.status])).toEqual(
      expected.map(([name, status]) => [name.title, status]),
    );
    expect(result.lifetime).toBe(expectedLifetime);
  });

  it('names the claims it read, and brings the advice of the checks it ran', () => {
    const { findings } = checkAccessToken(makeJwt({ sub: 'u_1', groupRole: 'ADMIN', iat, exp: iat + 900 }), received);
    expect(findings[0]!.check.detail).toBe('Its claims: sub, groupRole, iat, exp.');
    expect(findings.flatMap(({ advice }) => advice ?? [])).toEqual([
      "Set `roleClaim: 'groupRole'`: the role is in that claim.",
    ]);
  });
});
