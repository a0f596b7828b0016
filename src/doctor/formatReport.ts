import type { DoctorReport } from './runDoctor';

const MARKS = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', 'not checked': '--  ' } as const;

/** A {@link DoctorReport} as the doctor prints it: one line a check, then the advice. */
export function formatReport(report: DoctorReport): string {
  const lines = [`apollo-link-token-pair doctor: ${report.uri}`, ''];
  for (const check of report.checks) lines.push(`${MARKS[check.status]}  ${check.title}: ${check.detail}`);
  lines.push('', 'What the package will do with this server:');
  for (const line of report.advice.length ? report.advice : ['Nothing to set: it follows the contract.'])
    lines.push(`- ${line}`);
  lines.push(
    '',
    `${report.requests} requests; ${report.loggedOut ? 'every session opened was logged out' : 'some sessions could not be logged out'}. ${report.ok ? 'No check failed.' : 'Some checks failed.'}`,
  );
  return lines.join('\n');
}
