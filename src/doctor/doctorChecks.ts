import type { DoctorCheck } from './DoctorCheck';

/** What a check looked at: its id (shared by the outcomes of one step) and the title the report prints. */
export interface CheckName {
  readonly id: string;
  readonly title: string;
}

/**
 * Every check of the doctor, in the order a run reports them: the one place their ids and titles are written. A
 * step with two outcomes under one id (a sign-in that failed, or the answer it gave) has a row for each.
 */
export const DOCTOR_CHECKS = {
  signIn: { id: 'login', title: 'Sign in' },
  loginAnswer: { id: 'login', title: 'Login answer' },
  jwt: { id: 'jwt', title: 'Access token is a JWT' },
  exp: { id: 'exp', title: 'exp in seconds' },
  lifetime: { id: 'lifetime', title: 'Access token lifetime' },
  clock: { id: 'clock', title: 'Server clock against this one' },
  role: { id: 'role', title: 'Role claim' },
  me: { id: 'me', title: 'me with the access token' },
  garbage: { id: 'garbage', title: 'me with a garbage token' },
  refresh: { id: 'refresh', title: 'refreshToken answers a new pair' },
  singleUse: { id: 'single-use', title: 'The spent refresh token is refused' },
  reuseDetection: { id: 'reuse-detection', title: 'Reuse of a spent refresh token ends the session' },
  logout: { id: 'logout', title: 'logout kills both tokens' },
  deadAccess: { id: 'dead-access', title: 'A dead session is noticed' },
  wrongPassword: { id: 'wrong-password', title: 'A wrong password is refused' },
  tokenExpired: { id: 'token-expired', title: 'An expired access token gets TOKEN_EXPIRED' },
} as const satisfies Record<string, CheckName>;

/** The check of one of the app's sign-in doors (`signIns`), named after the door. */
export function signInDoorCheck(name: string): CheckName {
  return { id: `sign-in-door:${name}`, title: `Sign-in door "${name}"` };
}

/** A check's outcome: its name from {@link DOCTOR_CHECKS}, how it went, and why. */
export function checked(name: CheckName, status: DoctorCheck['status'], detail: string): DoctorCheck {
  return { id: name.id, title: name.title, status, detail };
}

/** A check and the advice it brings, if any: what a check of the doctor comes to. */
export interface DoctorFinding {
  readonly check: DoctorCheck;
  readonly advice?: string;
}
