export { createTokenAuthWsClient, type TokenAuthWsClientOptions } from './createTokenAuthWsClient';
