export {
  createTestAuthServer,
  type TestAuthServer,
  type TestAuthServerOptions,
  type TestAuthServerStats,
  type TestAuthServerFaults,
} from './createTestAuthServer';
export type { SubscriptionServer, WsExpiry } from './attachSubscriptions';
export { TEST_USERS, type TestUser, type SeedUser } from './users';
export { createTestClock, type TestClock, type TestClockOptions } from './createTestClock';
export { createTestSession, type TestSession, type TestSessionOptions } from './createTestSession';
