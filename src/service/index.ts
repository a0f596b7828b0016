/**
 * A session for Node services and workers that log in from their own credentials.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/service
 */
export {
  createServiceAuth,
  type ServiceAuth,
  type ServiceAuthOptions,
  type ServiceCredentials,
} from './createServiceAuth';
