// The GraphQL Yoga 5 spec server of test/interop/servers (createYoga on node:http, plain GraphQLErrors, which Yoga
// sends without a code), run as a child process like every stack.
import { startYogaSpec } from '../../servers/startYogaSpec';

const { url } = await startYogaSpec({ accessTokenTtl: Number(process.env['ACCESS_TOKEN_TTL'] ?? 900) });
console.log(`listening on ${url}`);
