import { CLUBS, type Club } from './clubs';

/** An account of a test server: what logs in, and the role its access tokens carry. */
export interface TestUser {
  /** Opaque user id, the tokens' `sub`. @defaultValue `u_1`, `u_2` … by position */
  readonly id?: string;
  /** What it logs in with, and the `email` claim of its access tokens. */
  readonly email: string;
  /** What it logs in with; `''` for an account with no password (one `signInWithIdToken` signed up). */
  readonly password: string;
  /** The `role` claim: `OWNER`, the built-in `ADMIN`, or a custom role's name. */
  readonly role: string;
  /** Clubs a staff user is assigned to (the sample `clubs` query); the owner sees every club. @defaultValue none */
  readonly clubIds?: readonly string[];
  /** Permission claims of a custom role, put in its access tokens. @defaultValue none */
  readonly permissions?: { readonly clubPermissions: readonly string[]; readonly orgPermissions: readonly string[] };
  /**
   * Whether signing in with its password asks for a second factor, a code "sent by e-mail" (beyond the contract):
   * `signIn` answers `SecondFactorRequired`, and `loginWithEmailPassword` refuses with `SECOND_FACTOR_REQUIRED`.
   * @defaultValue `false`
   */
  readonly secondFactor?: boolean;
}

/** A {@link TestUser} as a server holds it, with its id and clubs settled. */
export interface SeedUser extends TestUser {
  readonly id: string;
  readonly clubIds: readonly string[];
}

/**
 * The accounts a test server has when given no `users`: an organization's owner, a built-in ADMIN, a custom-role
 * Cashier (with permission claims), and an ADMIN with a second factor (`twofactor@demo.test`, which signs in with
 * `signIn` and `verifySecondFactor`, not with `loginWithEmailPassword`).
 */
export const TEST_USERS: readonly SeedUser[] = [
  { id: 'u_owner', email: 'owner@demo.test', password: 'owner-pass', role: 'OWNER', clubIds: [] },
  {
    id: 'u_admin',
    email: 'admin@demo.test',
    password: 'admin-pass',
    role: 'ADMIN',
    clubIds: ['c_downtown', 'c_harbor'],
  },
  {
    id: 'u_cashier',
    email: 'cashier@demo.test',
    password: 'cashier-pass',
    role: 'Cashier',
    clubIds: ['c_uptown'],
    permissions: { clubPermissions: ['sales.read', 'sales.write'], orgPermissions: [] },
  },
  {
    id: 'u_twofactor',
    email: 'twofactor@demo.test',
    password: 'twofactor-pass',
    role: 'ADMIN',
    clubIds: ['c_downtown'],
    secondFactor: true,
  },
];

/** The server's accounts: `users` with ids and clubs settled, or {@link TEST_USERS}. */
export function seedUsers(users: readonly TestUser[] = TEST_USERS): SeedUser[] {
  const emails = new Set<string>();
  return users.map((user, index) => {
    if (emails.has(user.email)) throw new Error(`createTestAuthServer: two users with the email ${user.email}`);
    emails.add(user.email);
    return { ...user, id: user.id ?? `u_${index + 1}`, clubIds: user.clubIds ?? [] };
  });
}

/** The account that `email` and `password` sign in to; an account without a password has none. */
export function findByCredentials(users: readonly SeedUser[], email: string, password: string): SeedUser | undefined {
  return users.find((user) => user.email === email && user.password !== '' && user.password === password);
}

/** Adds an account to `users` (a server's, which grows as people sign up), with an id no account has yet. */
export function addAccount(users: SeedUser[], account: Pick<TestUser, 'email' | 'password' | 'role'>): SeedUser {
  let n = users.length + 1;
  while (users.some((user) => user.id === `u_${n}`)) n += 1;
  const user: SeedUser = { ...account, id: `u_${n}`, clubIds: [] };
  users.push(user);
  return user;
}

/** The clubs `user` may see: every club for the owner, the assigned ones for staff. */
export function visibleClubs(user: SeedUser): Club[] {
  return user.role === 'OWNER' ? [...CLUBS] : CLUBS.filter((club) => user.clubIds.includes(club.id));
}
