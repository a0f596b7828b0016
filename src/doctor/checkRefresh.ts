import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import { judgeReuseRefusal } from './judgeReuseRefusal';
import { maskToken } from './maskToken';
import { pairOf, refusedBy, type Pair } from './Pair';
import { describeErrors } from './postGraphQL';

/**
 * 4. Refresh, then the spent refresh token once more. Answers the newest pair of a session still open, for the
 * logout check: `first` when the refresh failed, none when presenting the spent token ended the session.
 */
export async function checkRefresh(run: DoctorRun, first: Pair): Promise<Pair | undefined> {
  const renewed = await run.client.refresh(first);
  const second = pairOf(renewed, 'refreshToken');
  if (!second) {
    run.check(DOCTOR_CHECKS.refresh, 'fail', `It answered ${describeErrors(renewed)}.`);
    return first;
  }
  run.sessions.delete(first);
  run.sessions.add(second);
  run.check(
    DOCTOR_CHECKS.refresh,
    second.refreshToken !== first.refreshToken ? 'ok' : 'warn',
    second.refreshToken !== first.refreshToken
      ? `A new pair: ${maskToken(second.refreshToken)}.`
      : 'It answered the same refresh token: rotation is what makes a refresh token single use.',
  );
  const reused = await run.client.refresh(first);
  const again = pairOf(reused, 'refreshToken');
  if (again) {
    run.sessions.add(again);
    run.check(
      DOCTOR_CHECKS.singleUse,
      'fail',
      'The server renewed a refresh token it had already renewed: refresh tokens are not single use.',
    );
    run.advice.push(
      'Refresh tokens are not single use: the package stays safe (it never sends one twice), but your server does not follow the contract, and a stolen refresh token stays usable.',
    );
    return again;
  }
  if (!refusedBy(reused)) {
    run.check(DOCTOR_CHECKS.singleUse, 'warn', `No verdict: ${describeErrors(reused)}.`);
    return second;
  }
  run.report(judgeReuseRefusal(reused));
  return checkReuseDetection(run, second);
}

/**
 * Reuse detection: does presenting the spent token end the session it belonged to (whose newest pair is `second`)?
 * Answers the session's newest pair, or none when it ended.
 */
async function checkReuseDetection(run: DoctorRun, second: Pair): Promise<Pair | undefined> {
  const after = await run.client.refresh(second);
  const third = pairOf(after, 'refreshToken');
  if (third) {
    run.sessions.delete(second);
    run.sessions.add(third);
    run.check(
      DOCTOR_CHECKS.reuseDetection,
      'warn',
      'No: the session went on after its spent refresh token was presented. The contract does not ask for it; OAuth advises it for refresh token rotation (RFC 9700, section 4.14).',
    );
    return third;
  }
  if (!refusedBy(after)) {
    run.check(DOCTOR_CHECKS.reuseDetection, 'warn', `Not known: ${describeErrors(after)}.`);
    return second;
  }
  run.sessions.delete(second);
  run.check(
    DOCTOR_CHECKS.reuseDetection,
    'ok',
    `Yes: the newest refresh token was refused next (${describeErrors(after)}).`,
  );
  return undefined;
}
