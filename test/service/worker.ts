/**
 * One worker process of an integration, for the multi-process test: logs in with its own session, sends an
 * operation every 100 ms for `RUN_MS`, and prints one JSON line with what happened.
 */
import { createServiceAuth } from '../../src/service/index.ts';
import { clientFor, ping } from '../helpers/pingClient.ts';

const uri = process.env['API_URL']!;
const auth = createServiceAuth({
  uri,
  credentials: () => ({ email: process.env['API_EMAIL']!, password: process.env['API_PASSWORD']! }),
});
const client = clientFor(auth.link, uri);

await auth.start();
let ok = 0;
let failed = 0;
const first = await auth.getAccessToken();
const until = Date.now() + Number(process.env['RUN_MS'] ?? 3000);
for (let n = 0; Date.now() < until; n++) {
  try {
    await ping(client, n);
    ok++;
  } catch {
    failed++;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const refreshed = (await auth.getAccessToken()) !== first;
console.log(JSON.stringify({ ok, failed, refreshed, status: auth.getState().status }));
auth.dispose();
