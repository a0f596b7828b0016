import { GraphQLError } from 'graphql';
import type { SpecAuthentication, SpecAuthService } from './specAuthService';

/** The spec's operations, as a server author would type them from the contract. */
export const typeDefs = /* GraphQL */ `
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

  "A business resource, whose errors are the app's, not the session's."
  type Club {
    id: ID!
    name: String!
  }

  type Query {
    me: User!
    club(id: ID!): Club!
  }

  type Mutation {
    loginWithEmailPassword(email: String!, password: String!): AuthPayload!
    refreshToken(token: String!): TokenPair!
    logout(refreshToken: String!): LogoutResult!
    renameClub(id: ID!, name: String!): Club!
  }
`;

/** What the resolvers need from each request: the verdict on its bearer token. */
export interface SpecContext {
  readonly auth: SpecAuthentication;
}

/**
 * The user of a request, or the error the contract prescribes: `TOKEN_EXPIRED` for an expired access token
 * (the only code the contract names), a plain message for anything else.
 */
export function requireUser({ auth }: SpecContext) {
  if (auth === 'expired') throw new GraphQLError('Access token expired', { extensions: { code: 'TOKEN_EXPIRED' } });
  if (typeof auth === 'string') throw new GraphQLError('Not authenticated');
  return auth.user;
}

/** The resolvers of {@link typeDefs}: the auth service's answers, its refusals thrown as `GraphQLError`s. */
export function createResolvers(service: SpecAuthService) {
  return {
    Query: {
      me: (_: unknown, __: unknown, context: SpecContext) => {
        service.stats.meQueries += 1;
        return requireUser(context);
      },
      club: (_: unknown, { id }: { id: string }, context: SpecContext) => {
        requireUser(context);
        if (id !== 'c1') throw new GraphQLError('Club not found');
        return { id, name: 'Riverside' };
      },
    },
    Mutation: {
      loginWithEmailPassword: async (_: unknown, { email, password }: { email: string; password: string }) => {
        const answer = await service.login(email, password);
        if (!answer) throw new GraphQLError('Invalid email or password');
        return answer;
      },
      refreshToken: async (_: unknown, { token }: { token: string }) => {
        const pair = await service.refresh(token);
        if (!pair) throw new GraphQLError('Invalid refresh token');
        return pair;
      },
      logout: async (_: unknown, { refreshToken }: { refreshToken: string }) => {
        if (!(await service.logout(refreshToken))) throw new GraphQLError('Invalid refresh token');
        return { success: true };
      },
      renameClub: (_: unknown, __: unknown, context: SpecContext) => {
        requireUser(context);
        throw new GraphQLError('Not allowed to edit this club');
      },
    },
  };
}
