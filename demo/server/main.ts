/**
 * Starts the demo auth server: `tsx demo/server/main.ts`, with `PORT` (default 4000) and `HOST` (default 127.0.0.1).
 */
import { createAuthServer } from './createAuthServer.ts';

const server = createAuthServer();
const url = await server.listen(Number(process.env['PORT'] ?? 4000), process.env['HOST'] ?? '127.0.0.1');

console.log(`Auth server listening on ${url} (graphql-ws subscriptions at ${url.replace(/^http/, 'ws')})`);
console.log('Seeded accounts:');
for (const user of server.users) console.log(`  ${user.email} / ${user.password}  (${user.role})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
