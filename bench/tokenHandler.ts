// Load figures of the token handler (issue 21): 1,000 signed-in sessions across two handler instances (each a
// process of its own) sharing one real redis-server, in front of the package's test server over HTTP, all on
// 127.0.0.1. Bounded in requests and time; stops by itself. Writes its section of bench/RESULTS.md.
//
//   npm run bench:handler
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createTestAuthServer } from '../src/testing/index.ts';
import { freePort, startRedisServer, stopRedisServer } from '../test/helpers/redisProcess.ts';
import { HANDLER_SECTION, withSection } from './resultsSection.ts';

const SESSIONS = 1_000;
const CONCURRENCY = 50;
const STORM_WIDTH = 10;
const SECRET = 'a-benchmark-secret-of-at-least-32-bytes';
const OUT = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

interface Timing {
  readonly requests: number;
  readonly seconds: number;
  readonly latencies: number[];
  readonly statuses: Map<number, number>;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Runs `count` requests made by `make(i)`, at most `concurrency` at once; their latencies and statuses. */
async function load(count: number, concurrency: number, make: (i: number) => Promise<Response>): Promise<Timing> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const at = performance.now();
        const response = await make(i);
        await response.arrayBuffer();
        latencies.push(performance.now() - at);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return {
    requests: count,
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    statuses,
  };
}

function row(name: string, { requests, seconds, latencies, statuses }: Timing, cpuMs?: number): string {
  const codes = [...statuses].map(([status, n]) => `${n}×${status}`).join(', ');
  const cpu = cpuMs === undefined ? '' : ` ${((cpuMs * 1000) / requests).toFixed(0)} |`;
  return `| ${name} | ${requests} | ${(requests / seconds).toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 95).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} |${cpu} ${codes} |`;
}

function startInstance(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./tokenHandlerInstance.ts', import.meta.url))],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a handler instance did not start in 20 s')), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /port (\d+)/.exec(String(chunk))?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${port}` });
      }
    });
  });
}

const redisPort = await freePort();
const redis = await startRedisServer(redisPort);
const api = createTestAuthServer({
  users: Array.from({ length: SESSIONS }, (_, i) => ({ email: `user${i}@bench.test`, password: 'pw', role: 'ADMIN' })),
});
const graphqlUrl = await api.listen(0, '127.0.0.1');
const instances = await Promise.all(
  [0, 1].map(() => startInstance({ GRAPHQL_URL: graphqlUrl, SECRET, REDIS_PORT: String(redisPort) })),
);
const urls = instances.map(({ url }) => url);
const cpuOf = async () =>
  Promise.all(urls.map(async (url) => (await (await fetch(`${url}/__cpu`)).json()) as NodeJS.CpuUsage));
const cpuMs = (before: NodeJS.CpuUsage[], after: NodeJS.CpuUsage[]) =>
  after.reduce((sum, usage, i) => sum + (usage.user - before[i]!.user + usage.system - before[i]!.system) / 1000, 0);
const post = (i: number, route: string, body: unknown, cookie?: string) =>
  fetch(`${urls[i % 2]}/auth/${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-token-handler': '1',
      origin: urls[i % 2]!,
      ...(cookie && { cookie }),
    },
    body: JSON.stringify(body),
  });

const results: string[] = [];
const measure = async (name: string, count: number, concurrency: number, make: (i: number) => Promise<Response>) => {
  const before = await cpuOf();
  const timing = await load(count, concurrency, make);
  const cpu = cpuMs(before, await cpuOf());
  const line = row(name, timing, cpu);
  results.push(line);
  console.log(line);
  return { ...timing, cpuPerRequest: (cpu * 1000) / count };
};

const started = performance.now();
// 1,000 sessions signed in across both instances: their cookies and access tokens.
const sessions: Array<{ cookie: string; accessToken: string }> = [];
await measure('`/login` (upstream login, cookie sealed)', SESSIONS, CONCURRENCY, async (i) => {
  const response = await post(i, 'login', { email: `user${i}@bench.test`, password: 'pw' });
  const clone = response.clone();
  const body = (await clone.json()) as { accessToken: string };
  sessions[i] = { cookie: response.headers.getSetCookie()[0]!.split(';')[0]!, accessToken: body.accessToken };
  return response;
});
const fresh = await measure(
  '`/refresh`, fresh cookie (a page load: handed out, no rotation)',
  5 * SESSIONS,
  CONCURRENCY,
  (i) => post(i, 'refresh', {}, sessions[i % SESSIONS]!.cookie),
);
await measure('`getServerSession`, fresh cookie (a server render)', 5 * SESSIONS, CONCURRENCY, (i) =>
  fetch(`${urls[i % 2]}/__render`, { method: 'POST', body: sessions[i % SESSIONS]!.cookie }),
);
api.resetStats();
const stale = await measure('`/refresh`, stale (one rotation upstream each)', SESSIONS, CONCURRENCY, async (i) => {
  const response = await post(i, 'refresh', { accessToken: sessions[i]!.accessToken }, sessions[i]!.cookie);
  const body = (await response.clone().json()) as { accessToken: string };
  sessions[i] = {
    cookie: response.headers.getSetCookie()[0]?.split(';')[0] ?? sessions[i]!.cookie,
    accessToken: body.accessToken,
  };
  return response;
});
const rotations = api.stats.refreshSuccesses;
api.resetStats();
// The storm: every session renewed by 10 requests at once that present the same token (10 tabs), split over
// both instances; 50 sessions' storms at a time.
await measure(
  `storm: ${STORM_WIDTH} tabs at once per stale session, ${SESSIONS.toLocaleString('en')} sessions, both instances`,
  SESSIONS * STORM_WIDTH,
  50 * STORM_WIDTH,
  (i) => {
    const session = sessions[Math.floor(i / STORM_WIDTH)]!;
    return post(i, 'refresh', { accessToken: session.accessToken }, session.cookie);
  },
);
const storm = {
  rotations: api.stats.refreshSuccesses,
  reuse: api.stats.reuseDetections,
  calls: api.stats.refreshCalls,
};
const seconds = (performance.now() - started) / 1000;

for (const { child } of instances) child.kill('SIGTERM');
await api.close();
await stopRedisServer(redis);

const markdown = [
  '## 5. Token handler under load',
  '',
  `Measured ${new Date().toISOString()} with \`npm run bench:handler\` (${seconds.toFixed(0)} s): ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'},`,
  `Node ${process.version}. ${SESSIONS.toLocaleString('en')} signed-in sessions across 2 handler instances (each its own process, through`,
  "`toNodeHandler`) sharing one `redis-server` (`createRedisRotationCache`, ioredis), in front of the package's test server over",
  `HTTP; the load generator, the test server and Redis share the same ${cpus().length} cores, so the figures are a floor, not a ceiling.`,
  `Requests go ${CONCURRENCY} at a time (the storm: 50 sessions' ${STORM_WIDTH} tabs, ${50 * STORM_WIDTH} at once), alternating between the instances. CPU is the two`,
  "handler processes' user + system time per request (not the load generator's, the test server's or Redis's).",
  '',
  '| What | Requests | Requests/s | p50 ms | p95 ms | p99 ms | handler CPU µs/request | Answers |',
  '|---|---|---|---|---|---|---|---|',
  ...results,
  '',
  `Rotations versus sessions: the stale refreshes made ${rotations.toLocaleString('en')} upstream rotations for ${SESSIONS.toLocaleString('en')} sessions; the storm's`,
  `${(SESSIONS * STORM_WIDTH).toLocaleString('en')} requests made ${storm.calls.toLocaleString('en')} upstream refresh calls and ${storm.rotations.toLocaleString('en')} rotations for ${SESSIONS.toLocaleString('en')} sessions, with ${storm.reuse} reuse`,
  'detections: every request that presented a token already being renewed, on either instance, received the one renewal.',
  '',
  'What a signed-in user costs an instance: a page load or a server render is one fresh hand-out (the rows above),',
  'and the page renews its 15-minute access token once per lifetime, one rotation (the stale row): with one page',
  `load every 15 minutes, that is 4 × (${fresh.cpuPerRequest.toFixed(0)} + ${stale.cpuPerRequest.toFixed(0)}) µs = ${((4 * (fresh.cpuPerRequest + stale.cpuPerRequest)) / 1000).toFixed(1)} ms of handler CPU per signed-in user per hour:`,
  `one core keeps about ${Math.floor(3_600_000 / ((4 * (fresh.cpuPerRequest + stale.cpuPerRequest)) / 1000)).toLocaleString('en')} such users signed in (the upstream's own cost aside). Per 1,000 sessions: ${((fresh.cpuPerRequest * 1000) / 1000).toFixed(0)} ms of CPU`,
  `for a page load each, ${((stale.cpuPerRequest * 1000) / 1000).toFixed(0)} ms for a rotation each, ${((4 * (fresh.cpuPerRequest + stale.cpuPerRequest) * 1000) / 1e6).toFixed(1)} s per hour of steady use.`,
  '',
].join('\n');
await writeFile(OUT, withSection(await readFile(OUT, 'utf8').catch(() => ''), HANDLER_SECTION, markdown));
console.log(`\nwritten ${OUT}`);
process.exit(0);
