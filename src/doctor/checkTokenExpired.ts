import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import { describeErrors } from './postGraphQL';

/** The longest access token lifetime (s) the doctor waits out to see TOKEN_EXPIRED. */
const SHORT_LIFE = 30;

/** 7. TOKEN_EXPIRED, where tokens are short-lived enough to wait one out (`lifetime` in seconds). */
export async function checkTokenExpired(run: DoctorRun, lifetime: number | undefined): Promise<void> {
  if (lifetime === undefined || lifetime > SHORT_LIFE || lifetime <= 0) {
    run.check(
      DOCTOR_CHECKS.tokenExpired,
      'not checked',
      `The access token lives ${lifetime ?? 'an unknown number of'} s. By hand: sign in, wait past exp, send { me { id } } with that token, and look for extensions.code "TOKEN_EXPIRED".`,
    );
    return;
  }
  const fresh = await run.signIn();
  if (!fresh) return;
  await new Promise((resolve) => setTimeout(resolve, (lifetime + 1.5) * 1000));
  const expired = await run.client.me(fresh.accessToken);
  const code = expired.errors.find((error) => error.extensions?.['code'] === 'TOKEN_EXPIRED');
  run.check(
    DOCTOR_CHECKS.tokenExpired,
    code ? 'ok' : 'fail',
    code
      ? `After ${lifetime} s: ${describeErrors(expired)}.`
      : `After ${lifetime} s it answered ${describeErrors(expired)}: the package refreshes and replays only on TOKEN_EXPIRED (or isTokenExpiredError).`,
  );
}
