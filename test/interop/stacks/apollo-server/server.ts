// The Apollo Server 5 spec server of test/interop/servers (startStandaloneServer, a context function, plain
// GraphQLErrors, which Apollo Server sends with INTERNAL_SERVER_ERROR), run as a child process like every stack.
import { startApolloServerSpec } from '../../servers/startApolloServerSpec';

const { url } = await startApolloServerSpec({ accessTokenTtl: Number(process.env['ACCESS_TOKEN_TTL'] ?? 900) });
console.log(`listening on ${url}`);
