import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import type { Pair } from './Pair';
import { describeErrors } from './postGraphQL';

/** 3. The token works, and garbage does not. */
export async function checkAccessUse(run: DoctorRun, first: Pair): Promise<void> {
  const mine = await run.client.me(first.accessToken);
  run.check(
    DOCTOR_CHECKS.me,
    mine.data?.['me'] ? 'ok' : 'fail',
    mine.data?.['me'] ? 'It answers the signed-in user.' : `It answered ${describeErrors(mine)}.`,
  );
  const garbage = await run.client.me('eyJhbGciOiJIUzI1NiJ9.e30.garbage-signature');
  run.check(
    DOCTOR_CHECKS.garbage,
    garbage.data?.['me'] ? 'fail' : 'ok',
    garbage.data?.['me']
      ? 'The server accepted a token with a forged signature.'
      : `Refused: ${describeErrors(garbage)}.`,
  );
}
