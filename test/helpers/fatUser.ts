import type { TestUser } from '../../src/testing/users';

/**
 * An account of a custom role whose permission set, embedded in its access tokens, makes them about `bytes` long
 * (base64url: 4/3 of the claims). Logs in with `fat-pass`.
 */
export function fatUser(email: string, bytes: number): TestUser {
  const clubPermissions = Array.from(
    { length: Math.ceil((bytes * 3) / 4 / 26) },
    (_, i) => `club:permission:${String(i).padStart(5, '0')}`,
  );
  return { email, password: 'fat-pass', role: 'Auditor', permissions: { clubPermissions, orgPermissions: [] } };
}
