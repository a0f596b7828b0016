import { describeProperty } from './describeProperty';

// Two sessions on one store shared through shareTokenStore, on a store that keeps receivedAt and on one that keeps
// only the two tokens. The model's other set-ups and its checks: tokenSession.model.test.ts.
describeProperty([
  { instances: 2, shared: true, dropsReceivedAt: false },
  { instances: 2, shared: true, dropsReceivedAt: true },
]);
