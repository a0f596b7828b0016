import { jwtDecode } from 'jwt-decode';
import { checkClock } from './checkClock';
import { checkExp } from './checkExp';
import { checkLifetime } from './checkLifetime';
import { checkRole } from './checkRole';
import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';

/** What the doctor makes of an access token's claims, in the order it reports them, and the token's lifetime (s). */
export interface AccessTokenFindings {
  readonly findings: readonly DoctorFinding[];
  readonly lifetime?: number;
}

/**
 * The access token read as a JWT: its claims, `exp` in seconds, its lifetime and the server's clock against this
 * one (as of `received`, in ms), and the role. A token that is no JWT gets that one finding.
 */
export function checkAccessToken(accessToken: string, received: number): AccessTokenFindings {
  let claims: Record<string, unknown>;
  let jwt: DoctorFinding;
  try {
    claims = jwtDecode<Record<string, unknown>>(accessToken);
    jwt = { check: checked(DOCTOR_CHECKS.jwt, 'ok', `Its claims: ${Object.keys(claims).join(', ')}.`) };
  } catch {
    const detail = 'It cannot be decoded as a JWT: the package cannot time the proactive refresh.';
    return { findings: [{ check: checked(DOCTOR_CHECKS.jwt, 'fail', detail) }] };
  }
  const { lifetime, ...lifetimeFinding } = checkLifetime(claims);
  // The clock is read from iat only where the lifetime could be: iat and exp are numbers, in seconds.
  const clock = lifetime === undefined ? [] : [checkClock(claims['iat'] as number, received)];
  return { findings: [jwt, checkExp(claims), lifetimeFinding, ...clock, checkRole(claims)], lifetime };
}
