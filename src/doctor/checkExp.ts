import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';

/** Above this, an `exp` is in milliseconds: in seconds it would be past the year 5000. */
export const EXP_IN_MILLISECONDS = 1e11;

/** The access token's `exp`: numeric, and in seconds (in milliseconds the package would never refresh in time). */
export function checkExp(claims: Readonly<Record<string, unknown>>): DoctorFinding {
  const exp = claims['exp'];
  if (typeof exp !== 'number')
    return {
      check: checked(
        DOCTOR_CHECKS.exp,
        'fail',
        'The token has no numeric exp: the package renews it only after TOKEN_EXPIRED.',
      ),
    };
  if (exp > EXP_IN_MILLISECONDS)
    return {
      check: checked(
        DOCTOR_CHECKS.exp,
        'fail',
        `exp is ${exp}: milliseconds, not the seconds JWTs use; the package would take the token to live for millennia.`,
      ),
      advice:
        'Write `exp` (and `iat`) in seconds: with `exp` in milliseconds the package never refreshes before TOKEN_EXPIRED.',
    };
  return { check: checked(DOCTOR_CHECKS.exp, 'ok', `exp is ${exp}.`) };
}
