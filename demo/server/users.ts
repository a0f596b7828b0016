/** The demo's seeded accounts (the login form lists them): the test server's default users. */
export { TEST_USERS as USERS, type SeedUser } from '../../src/testing/users.ts';
