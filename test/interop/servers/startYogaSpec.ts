import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createSchema, createYoga } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { createSpecAuthService, type SpecAuthServiceOptions } from './specAuthService';
import { createResolvers, requireUser, type SpecContext, typeDefs } from './specSchema';
import type { SpecServer } from './startApolloServerSpec';

/** {@link SpecServer} on Yoga: also its graphql-ws endpoint. */
export interface YogaSpecServer extends SpecServer {
  /** `ws://127.0.0.1:PORT/graphql`: graphql-ws, with the token in `connection_init`'s `authorization`. */
  readonly wsUrl: string;
}

const subscriptionTypeDefs = /* GraphQL */ `
  type Tick {
    n: Int!
    userId: ID!
  }

  type Subscription {
    "Events every \`interval\` ms for the signed-in user, \`count\` of them (forever when absent)."
    ticks(interval: Int! = 20, count: Int): Tick!
  }
`;

async function* ticks(userId: string, interval: number, count?: number | null) {
  for (let n = 1; count == null || n <= count; n++) {
    await new Promise((resolve) => setTimeout(resolve, interval));
    yield { ticks: { n, userId } };
  }
}

/**
 * Starts the spec's service on GraphQL Yoga 5, as its docs teach: `createYoga` with `createSchema`, served by
 * `node:http`'s `createServer`, and graphql-ws through `ws` on the same server (Yoga's "GraphQL over WebSocket"
 * recipe). Listens on 127.0.0.1, on an ephemeral port.
 *
 * @remarks
 * Yoga leaves errors thrown as `GraphQLError` as they are (no code), under HTTP 200, and masks any other error.
 */
export async function startYogaSpec(options: SpecAuthServiceOptions = {}): Promise<YogaSpecServer> {
  const service = createSpecAuthService(options);
  const resolvers = createResolvers(service);
  const yoga = createYoga({
    schema: createSchema<SpecContext>({
      typeDefs: [typeDefs, subscriptionTypeDefs],
      resolvers: {
        ...resolvers,
        Subscription: {
          ticks: {
            // The token is checked when the subscription starts, so a refusal is its first and only result.
            subscribe: (
              _: unknown,
              { interval, count }: { interval: number; count?: number | null },
              context: SpecContext,
            ) => ticks(requireUser(context).id, interval, count),
          },
        },
      },
    }),
    // Over HTTP the token comes in the header; over graphql-ws in `connection_init`'s payload.
    context: async ({
      request,
      connectionParams,
    }: {
      request?: Request;
      connectionParams?: Record<string, unknown>;
    }) => ({
      auth: await service.authenticate(
        request?.headers.get('authorization') ?? (connectionParams?.['authorization'] as string | undefined),
      ),
    }),
    logging: false,
  });

  const server = createServer(yoga);
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors as GraphQLError[];
        return args;
      },
    },
    wsServer,
  );

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${yoga.graphqlEndpoint}`,
    wsUrl: `ws://127.0.0.1:${port}${yoga.graphqlEndpoint}`,
    service,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wsServer.clients) client.terminate();
        wsServer.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
