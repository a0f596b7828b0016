// lib/tokenHandler.ts: one token handler for the routes and the proxy.
import { createRedisRotationCache, createTokenHandler } from 'apollo-link-token-pair/server';
import { Redis } from 'ioredis';

export const tokenHandler = createTokenHandler({
  uri: process.env.GRAPHQL_URL!, // the API's GraphQL endpoint
  // openssl rand -base64 32. To rotate it on several instances, two deploys, one instance at a time: the new one
  // in TOKEN_HANDLER_SECRET_OLD (it opens, the old still seals), then the two swapped (the new one seals, both
  // open); drop the old one after the cookies' life. In one deploy, an instance not yet updated signs out the
  // sessions whose cookie an updated one sealed.
  secret: process.env.TOKEN_HANDLER_SECRET_OLD
    ? [process.env.TOKEN_HANDLER_SECRET!, process.env.TOKEN_HANDLER_SECRET_OLD]
    : process.env.TOKEN_HANDLER_SECRET!,
  // Several instances (or other handlers beside this app) share one rotation cache, or two of them that get one
  // cookie at once both spend its refresh token. One instance needs none: the default is per process.
  cache: process.env.REDIS_URL
    ? createRedisRotationCache(new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 }))
    : undefined,
  // The doors of the page's signIn(name, variables): the page names one and never holds a document, and the
  // refresh token of the answer goes into the cookie. A sign-up's answer is a pair: the new account is signed in.
  signIns: {
    register: `mutation Register($email: String!, $password: String!) {
      register(email: $email, password: $password) { accessToken refreshToken user { id email role } }
    }`,
  },
});
