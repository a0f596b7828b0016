import { DOCTOR_CHECKS } from './doctorChecks';
import type { DoctorRun } from './DoctorRun';
import { maskToken } from './maskToken';
import { pairOf, type Pair } from './Pair';
import { describeErrors } from './postGraphQL';

/** 1. Sign in: the pair every later step starts from, or nothing (and nothing else can be checked). */
export async function checkSignIn(run: DoctorRun): Promise<Pair | undefined> {
  const signedIn = await run.client.login(run.password);
  const first = pairOf(signedIn, 'loginWithEmailPassword');
  if (!first) {
    run.check(
      DOCTOR_CHECKS.signIn,
      'fail',
      `loginWithEmailPassword answered ${describeErrors(signedIn)}: nothing else can be checked.`,
    );
    return undefined;
  }
  run.sessions.add(first);
  const user = (signedIn.data?.['loginWithEmailPassword'] as { user?: Record<string, unknown> }).user;
  const missing = ['id', 'email', 'role'].filter((key) => user?.[key] == null);
  run.check(
    DOCTOR_CHECKS.loginAnswer,
    missing.length ? 'warn' : 'ok',
    missing.length
      ? `The answer has the pair, but its user lacks ${missing.join(', ')}: the package reads them from the token's claims instead.`
      : `accessToken ${maskToken(first.accessToken)}, refreshToken ${maskToken(first.refreshToken)} and user { id, email, role }.`,
  );
  return first;
}
