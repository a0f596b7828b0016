/**
 * One worker process of an integration, for the multi-process test: logs in with its own session, sends an
 * operation every 100 ms for `RUN_MS`, and prints one JSON line with what happened.
 */
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { createServiceAuth } from '../../src/service/index.ts';

const uri = process.env['API_URL']!;
const auth = createServiceAuth({
  uri,
  credentials: () => ({ email: process.env['API_EMAIL']!, password: process.env['API_PASSWORD']! }),
});
const client = new ApolloClient({ link: ApolloLink.from([auth.link, new HttpLink({ uri })]), cache: new InMemoryCache() });
const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

await auth.start();
let ok = 0;
let failed = 0;
let refreshes = 0;
const first = await auth.getAccessToken();
const until = Date.now() + Number(process.env['RUN_MS'] ?? 3000);
for (let n = 0; Date.now() < until; n++) {
  try {
    await client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' });
    ok++;
  } catch {
    failed++;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
if ((await auth.getAccessToken()) !== first) refreshes++;
console.log(JSON.stringify({ ok, failed, refreshed: refreshes > 0, status: auth.getState().status }));
auth.dispose();
