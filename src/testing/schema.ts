import { buildSchema } from 'graphql';

/**
 * The GraphQL schema of the auth service; resolvers come from the root value. The contract's operations and
 * sample fields, then the sign-in doors that real APIs have beyond the contract (an `extend type Mutation`).
 */
export const schema = buildSchema(/* GraphQL */ `
  type User {
    id: ID!
    email: String!
    role: String!
  }
  type AuthPayload {
    accessToken: String!
    refreshToken: String!
    user: User!
  }
  type TokenPair {
    accessToken: String!
    refreshToken: String!
  }
  type LogoutResult {
    success: Boolean!
  }
  type Club {
    id: ID!
    name: String!
  }
  type Tick {
    n: Int!
    userId: ID!
    email: String!
  }
  type Query {
    me: User!
    clubs: [Club!]!
    ping(n: Int): Int!
    "What the clubs offer, for anyone: the one field that needs no token (a public catalogue)."
    catalogue: [String!]!
  }
  type Mutation {
    loginWithEmailPassword(email: String!, password: String!): AuthPayload!
    refreshToken(token: String!): TokenPair!
    logout(refreshToken: String!): LogoutResult!
    "Renames a club the signed-in user may see; needs a valid access token (TOKEN_EXPIRED, UNAUTHENTICATED)."
    renameClub(id: ID!, name: String!): Club!
  }
  type Subscription {
    "Ticks for the signed-in user, over graphql-ws; ends with TOKEN_EXPIRED when the connection's token expires."
    ticker: Tick!
  }

  type SignInCodeSent {
    email: String!
    "Seconds the code works for."
    expiresIn: Int!
  }
  type SecondFactorRequired {
    "What verifySecondFactor takes with the code sent by e-mail."
    challenge: String!
  }
  union SignInResult = AuthPayload | SecondFactorRequired
  extend type Mutation {
    "A new account (role MEMBER) and its first pair. EMAIL_TAKEN, or BAD_USER_INPUT (a password under 8 characters, an e-mail without @)."
    register(email: String!, password: String!): AuthPayload!
    "Sends a 6-digit code by e-mail (the server's codes list and serve print it). An unknown e-mail gets the same answer, and no code."
    requestSignInCode(email: String!): SignInCodeSent!
    "A pair for the code requestSignInCode sent: single use, 10 minutes, 5 wrong tries spend it. INVALID_CODE otherwise."
    signInWithCode(email: String!, code: String!): AuthPayload!
    "As loginWithEmailPassword, but an account with a second factor gets SecondFactorRequired, and a code by e-mail."
    signIn(email: String!, password: String!): SignInResult!
    "A pair for the challenge of signIn and its code: single use, 10 minutes. INVALID_CHALLENGE, INVALID_CODE."
    verifySecondFactor(challenge: String!, code: String!): AuthPayload!
    "A pair for an ID token of the test identity provider; an unknown e-mail signs up (role MEMBER). INVALID_ID_TOKEN."
    signInWithIdToken(idToken: String!): AuthPayload!
  }
`);
