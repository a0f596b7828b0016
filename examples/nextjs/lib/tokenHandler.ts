// lib/tokenHandler.ts: one token handler for the routes and the proxy.
import { createTokenHandler } from 'apollo-link-token-pair/server';

export const tokenHandler = createTokenHandler({
  uri: process.env.GRAPHQL_URL!, // the API's GraphQL endpoint
  // openssl rand -base64 32. To rotate it: the new one here, the one it replaces in TOKEN_HANDLER_SECRET_OLD
  // (the new one seals, both open), on every instance; drop the old one after the cookies' life.
  secret: process.env.TOKEN_HANDLER_SECRET_OLD
    ? [process.env.TOKEN_HANDLER_SECRET!, process.env.TOKEN_HANDLER_SECRET_OLD]
    : process.env.TOKEN_HANDLER_SECRET!,
});
