import { systemClock, type Clock } from '../environment/Clock';
import type { ResumeSource } from '../environment/ResumeSource';
import { createMemoryTokenStore } from '../stores/createMemoryTokenStore';
import type { TokenStore } from '../stores/TokenStore';
import { createGraphQLTransport, type GraphQLTransportOptions } from '../transports/createGraphQLTransport';
import type { TokenAuthTransport } from '../transports/TokenAuthTransport';
import { toRetryDelay } from './toRetryDelay';
import type { TokenAuthOptions } from './TokenAuthOptions';

/** The options of a session with every default applied: read once, at its start. */
export interface SessionConfig {
  readonly clock: Clock;
  readonly transport: TokenAuthTransport;
  readonly store: TokenStore;
  readonly refreshFloor: number;
  readonly storeTimeout: number;
  readonly refreshTimeout: number;
  readonly refreshLeadTime: number;
  readonly roleClaim: string;
  readonly readUser: TokenAuthOptions['readUser'];
  readonly retryDelay: (attempt: number) => number;
  readonly resume: ResumeSource | undefined;
  readonly onRefresh: TokenAuthOptions['onRefresh'];
  readonly onSessionEnd: TokenAuthOptions['onSessionEnd'];
  readonly onError: TokenAuthOptions['onError'];
}

/** The message of a session given no way to reach its service. */
const NO_SERVICE =
  'apollo-link-token-pair: createTokenAuth needs `uri`, the GraphQL endpoint of the auth service, or `transport` ' +
  "(createTokenHandlerTransport('/auth') for a token handler, or your own).";

/** The message of sign-in documents beside a transport of the app's, which would never run them. */
const DOORS_BESIDE_TRANSPORT =
  'apollo-link-token-pair: `signIns` are for the default transport: pass them to createGraphQLTransport or ' +
  'createTokenHandler with `transport`.';

/** Reads `options`, with the defaults each option's TSDoc states; throws when they name no service. */
export function readSessionOptions(options: TokenAuthOptions): SessionConfig {
  if (!options.transport && !options.uri) throw new Error(NO_SERVICE);
  if (options.transport && options.signIns) throw new Error(DOORS_BESIDE_TRANSPORT);
  // The GraphQL transport reads its options (`uri`, `fetch`, `headers`, `isRefusal`, `signIns`) from these.
  const transport = options.transport ?? createGraphQLTransport(options as GraphQLTransportOptions);
  return {
    clock: options.clock ?? systemClock,
    transport,
    // A transport that decides where the pair lives (a token handler's) has the last word.
    store: transport.store ?? options.store ?? createMemoryTokenStore(),
    refreshFloor: options.refreshFloor ?? 5_000,
    storeTimeout: options.storeTimeout ?? 10_000,
    refreshTimeout: options.refreshTimeout ?? 30_000,
    refreshLeadTime: options.refreshLeadTime ?? 150_000,
    roleClaim: options.roleClaim ?? 'role',
    readUser: options.readUser,
    retryDelay: toRetryDelay(options.retryDelay),
    resume: options.refreshOnResume || undefined,
    onRefresh: options.onRefresh,
    onSessionEnd: options.onSessionEnd,
    onError: options.onError,
  };
}
