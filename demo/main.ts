/**
 * `npm run demo`: the spec's server with 60-second access tokens, and the demo app in front of it, on 5173 or the
 * next free port (as Vite does), or exactly on `PORT`.
 */
import { startDemo } from './startDemo.ts';

const PORT = process.env['PORT'];
const port = PORT === undefined || PORT === '' ? undefined : Number(PORT);
if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65_536)) {
  console.error(
    `PORT=${PORT} is not a port number: set it to one (0 to 65535), or leave it unset for 5173 or the next free one.`,
  );
  process.exit(1);
}

let demo: Awaited<ReturnType<typeof startDemo>>;
try {
  demo = await startDemo({ port, accessTokenTtl: Number(process.env['ACCESS_TOKEN_TTL']) || 60 });
} catch (error) {
  const inUse =
    (error as { code?: string }).code === 'EADDRINUSE' || /already in use/i.test(String((error as Error).message));
  console.error(
    inUse
      ? `Port ${port} is already in use: stop what runs there, set PORT to a free port, or leave PORT unset for the next free one.`
      : `The demo did not start: ${(error as Error).message}`,
  );
  process.exit(1);
}
console.log(`\n  ➜  Local:   ${demo.url}\n`);
console.log(`Demo ready: open ${demo.url}`);
console.log('Seeded accounts:');
for (const user of demo.server.users) console.log(`  ${user.email} / ${user.password}  (${user.role})`);
console.log('Press Ctrl+C to stop.');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void demo.close().then(() => process.exit(0));
  });
}
