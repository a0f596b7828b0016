import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';

/** How far (in seconds) the server's clock may be from this one before the doctor warns. */
const SKEW_ALLOWED = 30;

/** The server's clock against this one: the token's `iat` (seconds) against `received`, when it arrived (ms). */
export function checkClock(iat: number, received: number): DoctorFinding {
  const skew = Math.round(received / 1000 - iat);
  const near = Math.abs(skew) <= SKEW_ALLOWED;
  const detail = near
    ? `iat is ${skew} s from the local clock.`
    : `iat is ${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the local clock: the package times tokens from their own lifetime, so this does not matter to it; other clients may refresh at the wrong time.`;
  return { check: checked(DOCTOR_CHECKS.clock, near ? 'ok' : 'warn', detail) };
}
