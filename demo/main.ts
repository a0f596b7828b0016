/** `npm run demo`: the spec's server with 60-second access tokens, and the demo app in front of it. */
import { startDemo } from './startDemo.ts';

const demo = await startDemo({
  port: Number(process.env['PORT']) || 5173,
  accessTokenTtl: Number(process.env['ACCESS_TOKEN_TTL']) || 60,
});
console.log(`Demo ready: open ${demo.url}`);
console.log('Seeded accounts:');
for (const user of demo.server.users) console.log(`  ${user.email} / ${user.password}  (${user.role})`);
console.log('Press Ctrl+C to stop.');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void demo.close().then(() => process.exit(0));
  });
}
