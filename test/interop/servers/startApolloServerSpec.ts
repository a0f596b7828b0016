import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createSpecAuthService, type SpecAuthService, type SpecAuthServiceOptions } from './specAuthService';
import { createResolvers, type SpecContext, typeDefs } from './specSchema';

/** A spec server that runs, its auth service (the test's hooks) and how to stop it. */
export interface SpecServer {
  /** The GraphQL endpoint, `http://127.0.0.1:PORT/…`. */
  readonly url: string;
  readonly service: SpecAuthService;
  close(): Promise<void>;
}

/**
 * Starts the spec's service on Apollo Server 5, as its docs teach: `startStandaloneServer` with a `context`
 * function that reads the `Authorization` header. Listens on 127.0.0.1, on an ephemeral port.
 *
 * @remarks
 * Apollo Server gives every error thrown without a code `extensions.code = 'INTERNAL_SERVER_ERROR'`: the
 * refusals ('Invalid email or password', 'Invalid refresh token') arrive with that code, under HTTP 200.
 */
export async function startApolloServerSpec(options: SpecAuthServiceOptions = {}): Promise<SpecServer> {
  const service = createSpecAuthService(options);
  const server = new ApolloServer<SpecContext>({ typeDefs, resolvers: createResolvers(service) });
  const { url } = await startStandaloneServer(server, {
    listen: { host: '127.0.0.1', port: 0 },
    context: async ({ req }) => ({ auth: await service.authenticate(req.headers.authorization) }),
  });
  return { url, service, close: () => server.stop() };
}
