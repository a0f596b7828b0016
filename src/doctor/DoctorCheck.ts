/** One check: what was looked at, how it went, and one sentence of why. */
export interface DoctorCheck {
  readonly id: string;
  readonly title: string;
  readonly status: 'ok' | 'warn' | 'fail' | 'not checked';
  readonly detail: string;
}
