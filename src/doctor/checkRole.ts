import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';

/** The `role` claim, or the claim that seems to hold the role under another name (then `roleClaim` is advised). */
export function checkRole(claims: Readonly<Record<string, unknown>>): DoctorFinding {
  const role = claims['role'];
  if (typeof role === 'string') return { check: checked(DOCTOR_CHECKS.role, 'ok', `role is "${role}".`) };
  const roleLike = Object.keys(claims).find((key) => /role/i.test(key) && key !== 'role');
  if (!roleLike)
    return {
      check: checked(
        DOCTOR_CHECKS.role,
        'warn',
        'No role claim: useAuth().user.role will be undefined; set `roleClaim` to the claim that holds it.',
      ),
    };
  return {
    check: checked(DOCTOR_CHECKS.role, 'warn', `No role claim, but ${roleLike}: set \`roleClaim: '${roleLike}'\`.`),
    advice: `Set \`roleClaim: '${roleLike}'\`: the role is in that claim.`,
  };
}
