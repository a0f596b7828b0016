/**
 * Testing an app built on the package: a spec-true auth server that runs in-process (a Fetch handler, for MSW)
 * or over HTTP, a test clock, and a signed-in session for component tests.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/testing
 */
export { createTestAuthServer } from './createTestAuthServer';
export type { TestAuthServer, TestAuthServerOptions } from './TestAuthServer';
export type { SignInCode } from './createOneTimeCodes';
export type { IdTokenOptions } from './createIdTokenIssuer';
export type { TestAuthServerStats } from './stats';
export type { TestAuthServerFaults } from './faults';
export type { SubscriptionServer, WsExpiry } from './attachSubscriptions';
export { TEST_USERS, type TestUser, type SeedUser } from './users';
export { createTestClock, type TestClock, type TestClockOptions } from './createTestClock';
export { createTestSession, type TestSession, type TestSessionOptions } from './createTestSession';
export { serveMain, type ServeIo } from './serve/serveMain';
