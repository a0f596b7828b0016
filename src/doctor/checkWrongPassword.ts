import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import { pairOf } from './Pair';
import { describeErrors } from './postGraphQL';

/** 6. A wrong password is refused, and how the refusal reaches the app. */
export async function checkWrongPassword(run: DoctorRun): Promise<void> {
  const wrong = await run.client.login(`${run.password}\u0000wrong`);
  const wrongPair = pairOf(wrong, 'loginWithEmailPassword');
  if (wrongPair) run.sessions.add(wrongPair);
  run.check(
    DOCTOR_CHECKS.wrongPassword,
    wrongPair ? 'fail' : wrong.failure ? 'warn' : 'ok',
    wrongPair ? 'The server signed in with a wrong password.' : `Refused: ${describeErrors(wrong)}.`,
  );
  if (!wrongPair && !wrong.failure && wrong.errors[0]?.message) {
    run.advice.push(
      `A wrong password shows as the server's words ("${wrong.errors[0].message}"): login() rejects with an AuthRejectedError that carries them.`,
    );
  }
}
