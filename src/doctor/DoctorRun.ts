import { createDoctorClient, type DoctorClient } from './createDoctorClient';
import { createOpenSessions, type OpenSessions } from './createOpenSessions';
import type { DoctorCheck } from './DoctorCheck';
import { checked, type CheckName, type DoctorFinding } from './doctorChecks';
import { pairOf, type Pair } from './Pair';
import { createRequestBudget, type RequestBudget } from './requestBudget';
import type { DoctorOptions } from './DoctorOptions';

/** One run of the doctor: what it found so far, the sessions it holds open, and its bounded requests. */
export interface DoctorRun {
  readonly uri: string;
  readonly password: string;
  readonly checks: DoctorCheck[];
  readonly advice: string[];
  readonly budget: RequestBudget;
  readonly client: DoctorClient;
  /** Pairs whose session may still be live: logged out at the end. */
  readonly sessions: OpenSessions;
  check(name: CheckName, status: DoctorCheck['status'], detail: string): void;
  /** A finding of a pure check: its check, and its advice if it brings one. */
  report(finding: DoctorFinding): void;
  /** Signs in once more: the pair, kept open, or nothing. */
  signIn(): Promise<Pair | undefined>;
}

/** A run with nothing found yet, no session open and its whole budget left. */
export function createDoctorRun(options: DoctorOptions): DoctorRun {
  const budget = createRequestBudget();
  const client = createDoctorClient(options, budget);
  const sessions = createOpenSessions();
  const checks: DoctorCheck[] = [];
  const advice: string[] = [];
  return {
    uri: options.uri,
    password: options.password,
    checks,
    advice,
    budget,
    client,
    sessions,
    check: (name, status, detail) => void checks.push(checked(name, status, detail)),
    report(finding) {
      checks.push(finding.check);
      if (finding.advice) advice.push(finding.advice);
    },
    async signIn() {
      const pair = pairOf(await client.login(options.password), 'loginWithEmailPassword');
      if (pair) sessions.add(pair);
      return pair;
    },
  };
}
