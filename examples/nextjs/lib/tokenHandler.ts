// lib/tokenHandler.ts: one token handler for the routes and the proxy.
import { createTokenHandler } from 'apollo-link-token-pair/server';

export const tokenHandler = createTokenHandler({
  uri: process.env.GRAPHQL_URL!, // the API's GraphQL endpoint
  secret: process.env.TOKEN_HANDLER_SECRET!, // openssl rand -base64 32
});
