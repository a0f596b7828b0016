import { buildSchema } from 'graphql';

/** The GraphQL schema of the auth service; resolvers come from the root value. */
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
`);
