import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError } from 'graphql';
import { createSpecAuthService, type SpecAuthService, type SpecAuthServiceOptions } from './specAuthService';
import { createResolvers, type SpecContext, typeDefs } from './specSchema';

/** A spec server that runs, its auth service (the test's hooks) and how to stop it. */
export interface SpecServer {
  /** The GraphQL endpoint, `http://127.0.0.1:PORT/…`. */
  readonly url: string;
  readonly service: SpecAuthService;
  close(): Promise<void>;
}

/** Options of {@link startApolloServerSpec}. */
export interface ApolloServerSpecOptions extends SpecAuthServiceOptions {
  /**
   * Where an expired access token is refused: in the `me` resolver (HTTP 200), or, as Apollo's authentication
   * recipe does it, in the `context` function, before any resolver runs, for every operation that carries it
   * (HTTP 500, as Apollo Server answers an error thrown there without `extensions.http`).
   * @defaultValue `'resolver'`
   */
  checkTokenIn?: 'resolver' | 'context';
}

/**
 * Starts the spec's service on Apollo Server 5, as its docs teach: `startStandaloneServer` with a `context`
 * function that reads the `Authorization` header. Listens on 127.0.0.1, on an ephemeral port.
 *
 * @remarks
 * Apollo Server gives every error thrown without a code `extensions.code = 'INTERNAL_SERVER_ERROR'`: the
 * refusals ('Invalid email or password', 'Invalid refresh token') arrive with that code, under HTTP 200.
 */
export async function startApolloServerSpec(options: ApolloServerSpecOptions = {}): Promise<SpecServer> {
  const service = createSpecAuthService(options);
  const server = new ApolloServer<SpecContext>({ typeDefs, resolvers: createResolvers(service) });
  const { url } = await startStandaloneServer(server, {
    listen: { host: '127.0.0.1', port: 0 },
    context: async ({ req }) => {
      const auth = await service.authenticate(req.headers.authorization);
      if (options.checkTokenIn === 'context' && auth === 'expired') {
        throw new GraphQLError('Access token expired', { extensions: { code: 'TOKEN_EXPIRED' } });
      }
      return { auth };
    },
  });
  return { url, service, close: () => server.stop() };
}
