export {
  createServiceAuth,
  type ServiceAuth,
  type ServiceAuthOptions,
  type ServiceCredentials,
} from './createServiceAuth';
