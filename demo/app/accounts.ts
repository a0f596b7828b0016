import { USERS } from '../server/users.ts';

const NOTES: Record<string, string> = {
  OWNER: 'organization owner',
  ADMIN: 'built-in staff role',
  Cashier: 'custom role',
};

/**
 * The demo server's seeded accounts, with a word on each role: the login form and "Switch account" offer them. Not
 * the one with a second factor: they sign in with `loginWithEmailPassword`, which refuses it.
 */
export const ACCOUNTS = USERS.filter((user) => !user.secondFactor).map(({ email, password, role }) => ({
  email,
  password,
  role,
  note: NOTES[role] ?? '',
}));
