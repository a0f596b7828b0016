/**
 * A `graphql-ws` client whose subscriptions follow the session.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/ws
 */
export { createTokenAuthWsClient, type TokenAuthWsClientOptions } from './createTokenAuthWsClient';
