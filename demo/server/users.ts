import { CLUBS, type Club } from './clubs.ts';

/** A seeded account of the demo organization, with the password it logs in with. */
export interface SeedUser {
  id: string;
  email: string;
  password: string;
  role: string;
  /** Clubs a staff user is assigned to; the owner sees every club whatever is listed here. */
  clubIds: readonly string[];
  /** Permission claims of a custom role; absent for OWNER and the built-in ADMIN. */
  permissions?: { clubPermissions: readonly string[]; orgPermissions: readonly string[] };
}

/** The demo organization's accounts: its owner, a built-in ADMIN and a custom-role Cashier. */
export const USERS: readonly SeedUser[] = [
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
];

/** The clubs `user` may see: every club for the owner, the assigned ones for staff. */
export function visibleClubs(user: SeedUser): Club[] {
  return user.role === 'OWNER' ? [...CLUBS] : CLUBS.filter((club) => user.clubIds.includes(club.id));
}
