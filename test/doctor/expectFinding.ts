import { expect } from 'vitest';
import type { CheckName, DoctorFinding } from '../../src/doctor/doctorChecks';

/**
 * Asserts a finding of one of the doctor's pure checks: the check named `name` in DOCTOR_CHECKS, its status, words
 * of its detail, and words of its advice (none when `advice` is undefined).
 */
export function expectFinding(
  finding: DoctorFinding,
  name: CheckName,
  expected: { status: string; detail: string; advice?: string | undefined },
): void {
  expect(finding.check).toMatchObject({ id: name.id, title: name.title, status: expected.status });
  expect(finding.check.detail).toContain(expected.detail);
  if (expected.advice === undefined) expect(finding.advice).toBeUndefined();
  else expect(finding.advice).toContain(expected.advice);
}
