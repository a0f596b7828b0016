import { USERS } from '../server/users.ts';

const NOTES: Record<string, string> = {
  OWNER: 'organization owner',
  ADMIN: 'built-in staff role',
  Cashier: 'custom role',
};

/**
 * The demo server's seeded accounts, with a word on each and the test id of its button: the sign-in form lists
 * them all. The one with a second factor (`twofactor@demo.test`, an ADMIN too) is told apart by its note and id.
 */
export const SEEDED_ACCOUNTS = USERS.map(({ email, password, role, secondFactor }) => ({
  email,
  password,
  role,
  secondFactor: !!secondFactor,
  note: secondFactor ? 'second factor: after the password, a code by e-mail' : (NOTES[role] ?? ''),
  testId: secondFactor ? 'account-second-factor' : `account-${role}`,
}));

/**
 * The seeded accounts that sign in with a password alone (`loginWithEmailPassword`, which refuses the one with a
 * second factor): "Switch account" offers them.
 */
export const ACCOUNTS = SEEDED_ACCOUNTS.filter((account) => !account.secondFactor);
