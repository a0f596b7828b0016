import { checkAccessToken } from './checkAccessToken';
import { checkAccessUse } from './checkAccessUse';
import { checkLogout } from './checkLogout';
import { checkRefresh } from './checkRefresh';
import { checkSignIn } from './checkSignIn';
import { checkSignInDocuments } from './checkSignInDocuments';
import { checkTokenExpired } from './checkTokenExpired';
import { checkWrongPassword } from './checkWrongPassword';
import type { DoctorCheck } from './DoctorCheck';
import type { DoctorOptions } from './DoctorOptions';
import { createDoctorRun, type DoctorRun } from './DoctorRun';
import { MAX_REQUESTS } from './requestBudget';

export type { DoctorCheck } from './DoctorCheck';
export type { DoctorOptions } from './DoctorOptions';
export { MAX_REQUESTS };

/** What {@link runDoctor} found. */
export interface DoctorReport {
  readonly uri: string;
  readonly checks: readonly DoctorCheck[];
  /** What the package will do with this server, and the options to set. */
  readonly advice: readonly string[];
  /** Requests sent; never more than {@link MAX_REQUESTS}. */
  readonly requests: number;
  /** Whether every session the doctor opened was logged out again. */
  readonly loggedOut: boolean;
  /** `true` when no check failed. */
  readonly ok: boolean;
}

/**
 * Checks a server against the contract with a bounded number of requests: it signs in once, exercises the token
 * pair (refresh, reuse of a spent refresh token, logout) and a wrong password, logs out what it opened, and says
 * what `apollo-link-token-pair` will do with this server. Tokens appear in the report masked only.
 *
 * @example
 * ```ts
 * const report = await runDoctor({ uri: 'http://127.0.0.1:4000/graphql', email: 'me@example.com', password: process.env.PASSWORD! });
 * console.log(formatReport(report));
 * ```
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const run = createDoctorRun(options);
  run.checks.push(...checkSignInDocuments(options.signIns));
  const first = await checkSignIn(run);
  if (first) {
    // 2. The access token's claims: a JWT, exp in seconds, its lifetime, the clocks, the role.
    const { findings, lifetime } = checkAccessToken(first.accessToken, Date.now());
    findings.forEach(run.report);
    await checkAccessUse(run, first);
    const newest = await checkRefresh(run, first);
    await checkLogout(run, newest);
    await checkWrongPassword(run);
    await checkTokenExpired(run, lifetime);
  }
  return finish(run);
}

/** Logs out the sessions the run opened, and reports. */
async function finish(run: DoctorRun): Promise<DoctorReport> {
  const left = await run.sessions.logOutAll(run.client);
  if (left)
    run.advice.push(
      `${left} session(s) the doctor opened could not be logged out: they end when their refresh tokens expire.`,
    );
  return {
    uri: run.uri,
    checks: run.checks,
    advice: run.advice,
    requests: run.budget.sent(),
    loggedOut: left === 0,
    ok: !run.checks.some((each) => each.status === 'fail'),
  };
}
