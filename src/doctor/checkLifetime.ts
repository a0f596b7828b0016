import { EXP_IN_MILLISECONDS } from './checkExp';
import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';

/** The contract's access token lifetime, in seconds, and how far from it a token may be and still match. */
const CONTRACT_LIFETIME = 900;
const LIFETIME_SLACK = 90;

/**
 * The access token's lifetime (`exp - iat`, in seconds) against the contract's 15 minutes. The lifetime is
 * answered too, when the claims give it: the clock and TOKEN_EXPIRED checks start from it.
 */
export function checkLifetime(claims: Readonly<Record<string, unknown>>): DoctorFinding & { lifetime?: number } {
  const exp = claims['exp'];
  const iat = claims['iat'];
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp >= EXP_IN_MILLISECONDS)
    return {
      check: checked(DOCTOR_CHECKS.lifetime, 'not checked', 'The token lacks a numeric iat or exp in seconds.'),
    };
  const lifetime = exp - iat;
  const near = Math.abs(lifetime - CONTRACT_LIFETIME) <= LIFETIME_SLACK;
  const detail = near
    ? `${lifetime} s: the contract's 15 minutes.`
    : `${lifetime} s, not the contract's 15 minutes: the package times the token from its own lifetime, so it works, but the contract says 15 minutes.`;
  return { check: checked(DOCTOR_CHECKS.lifetime, near ? 'ok' : 'warn', detail), lifetime };
}
