/**
 * The plumbing that the package's other entries (`./react`, `./ws`, `./service`, `./testing`, …) share with the
 * core, as Apollo Client 4 has `@apollo/client/utilities/internal`.
 *
 * **Not public API.** Nothing here is covered by semantic versioning: any release may change or remove it. Apps
 * import from `apollo-link-token-pair` and its documented subpaths only. It is a subpath of its own so that the
 * entries beside the core load the same copy of the core's modules as the root does (one registry of sessions).
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/internal
 */
export { getTokenAuthInternals, type TokenAuthInternals } from '../core/session/tokenAuthInternals';
export type { TokenSession } from '../core/session/TokenSession';
export type { MaybePromise } from '../core/environment/MaybePromise';
export { REFUSALS } from '../core/session/sessionLimits';
export { toRetryDelay } from '../core/session/toRetryDelay';
export {
  createTimeline,
  type Timeline,
  type TimelineEntry,
  type TimelineOptions,
} from '../core/timeline/createTimeline';
export {
  describeEvent,
  describeUser,
  describeError,
  type EventLine,
  type TimelineKind,
} from '../core/timeline/describeEvent';
export { redact } from '../core/timeline/redact';
export { readAdoptedPair } from '../core/tokens/readTokenPair';
export { CHAIN_PROBE_KEY, type ChainProbe } from '../link/chainProbe';
export { readSignInDocument, type SignInDoor } from '../core/transports/readSignInDocument';
export { readTokenUser, type ReadUser, type UserFields } from '../core/session/readTokenUser';
