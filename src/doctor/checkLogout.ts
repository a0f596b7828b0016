import { checkDeadAccess } from './checkDeadAccess';
import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import { pairOf, type Pair } from './Pair';
import { describeErrors } from './postGraphQL';

/**
 * 5. Logout kills both tokens: on `newest`, the newest pair of the session the refresh check left open, or on a
 * session of its own when there is none (reuse detection ended the first).
 */
export async function checkLogout(run: DoctorRun, newest: Pair | undefined): Promise<void> {
  const latest = newest ?? (await run.signIn());
  if (!latest) {
    run.check(DOCTOR_CHECKS.logout, 'not checked', 'No session could be had to log out.');
    return;
  }
  const out = await run.client.logout(latest);
  if (out.failure || !out.data?.['logout']) {
    run.check(DOCTOR_CHECKS.logout, 'fail', `logout answered ${describeErrors(out)}.`);
    return;
  }
  run.sessions.delete(latest);
  const access = await run.client.me(latest.accessToken);
  const refreshed = await run.client.refresh(latest);
  const renewedAfter = pairOf(refreshed, 'refreshToken');
  if (renewedAfter) run.sessions.add(renewedAfter);
  const accessAlive = !!access.data?.['me'];
  run.check(
    DOCTOR_CHECKS.logout,
    accessAlive || renewedAfter ? 'fail' : 'ok',
    accessAlive
      ? 'The access token still worked after logout: the contract says both tokens die at once.'
      : renewedAfter
        ? 'The refresh token still worked after logout.'
        : `Both refused after logout: ${describeErrors(access)}; ${describeErrors(refreshed)}.`,
  );
  if (accessAlive)
    run.advice.push(
      'logout leaves the access token alive: the package forgets it at once, but anyone who copied it can use it until it expires.',
    );
  else run.report(checkDeadAccess(access));
}
