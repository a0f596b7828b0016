// `npm run soak`: a day in the life. Starts the API (the spec test server, 10 s access tokens unless
// --access-token-ttl says otherwise), two token handler instances sharing a real Redis behind a round-robin proxy,
// examples/nextjs on them and examples/vite-spa on the API, 3 Chromium tabs of each and a Node worker; runs the
// workload with seeded faults for --minutes; checks the invariants over what happened; measures what a day costs
// each tab; writes soak-report/. Everything on 127.0.0.1, ephemeral ports, stopped by PID.
import { randomBytes } from 'node:crypto';
import { parse } from 'graphql';
import { createTestAuthServer, TEST_USERS } from '../../src/testing/index.ts';
import { freePort, startRedisServer, stopRedisServer } from '../../test/helpers/redisProcess.ts';
import { ApiFaultProxy } from './ApiFaultProxy.ts';
import { AppTabs, type Person } from './AppTabs.ts';
import { checkInvariants } from './checkInvariants.ts';
import { builtNextjsWsPort, startNextjs, startNextServer, startViteSpa, type SecretRing } from './exampleApps.ts';
import { formatCosts } from './formatCosts.ts';
import { FrontProxy } from './FrontProxy.ts';
import { HandlerPool } from './HandlerPool.ts';
import { Journal, type PauseRecord } from './Journal.ts';
import { parseOptions } from './options.ts';
import { planFaults } from './planFaults.ts';
import { createRandom } from './random.ts';
import { runFault, type FaultTargets } from './runFault.ts';
import { startServiceWorker } from './serviceWorker.ts';
import { launchUserBrowser } from './UserBrowser.ts';
import { writeReport } from './writeReport.ts';
import { writeResultsSection } from './resultsSection.ts';

const TABS_PER_APP = 3;
/** One tab's heap snapshot every 5 s, the tabs in turn: each tab's every 30 s, and never two at once. */
const HEAP_EVERY = 5000;

const options = parseOptions(process.argv.slice(2));
const durationMs = options.minutes * 60_000;
const random = createRandom(options.seed);
const person = (email: string): Person => {
  const user = TEST_USERS.find((each) => each.email === email)!;
  return { email: user.email, password: user.password };
};
const [owner, admin, cashier] = ['owner@demo.test', 'admin@demo.test', 'cashier@demo.test'].map(person) as [
  Person,
  Person,
  Person,
];
const query = parse('query SoakMe { me { id email } }', { noLocation: true });
const mutation = parse(
  'mutation SoakRename($id: ID!, $name: String!) { renameClub(id: $id, name: $name) { id name } }',
  { noLocation: true },
);
// Clubs the mutations rename: one that both people of each app may see (owner: all; admin: downtown, harbor), and the worker's (cashier: uptown).
const TABS_CLUB = 'c_harbor';
const WORKER_CLUB = 'c_uptown';
// The tab of each app that shows the `ticker` subscription: graphql-ws from the page through the API's front (the
// nextjs page too: it holds the access token, the handler only the refresh token).
const TICKER_TAB = 1;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch((error) => console.error(`clean-up: ${(error as Error).message}`));
};
process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

const wall = Date.now();
const log = (text: string) => console.log(`[soak ${((Date.now() - wall) / 1000).toFixed(0).padStart(4)} s] ${text}`);
let exitCode = 1;
let verdict = 'the soak did not finish: 0 passed, 1 failed';
try {
  log(`seed ${options.seed}, ${options.minutes} min, ${options.accessTokenTtl} s access tokens`);
  const redisPort = await freePort();
  const redis = { port: redisPort, server: await startRedisServer(redisPort) };
  // next start renews sessions too: it shares the handlers' rotation cache.
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  cleanups.push(() => stopRedisServer(redis.server));

  const api = createTestAuthServer({ accessTokenTtl: options.accessTokenTtl });
  await api.listen(0, '127.0.0.1');
  cleanups.push(() => api.close());
  // Built below; its origin is known once vite preview runs.
  let spaOrigin = '';
  let journal = new Journal();
  const apiFront = new ApiFaultProxy(
    new URL(api.url),
    () => journal,
    () => spaOrigin,
    cashier.email,
  );
  // With --reuse-build, the port an earlier build of examples/nextjs inlined the API's graphql-ws URL for, when free.
  const earlierPort = options.reuseBuild ? builtNextjsWsPort() : undefined;
  await (earlierPort ? apiFront.listen(earlierPort).catch(() => apiFront.listen(0)) : apiFront.listen());
  cleanups.push(() => apiFront.close());
  log(`API ${api.url} behind ${apiFront.url}, Redis on ${redisPort}`);

  const secrets: { current: SecretRing; redeployNext(ring: SecretRing): Promise<number> } = {
    current: { secret: randomBytes(32).toString('base64') },
    // A rolling deploy of next start: the new one takes the front's traffic once ready, then the old one stops.
    async redeployNext(ring) {
      const fresh = await startNextServer(apiFront.url, ring, redisUrl);
      const old = next;
      next = fresh;
      await old.process.stop();
      return fresh.port;
    },
  };
  const handlers = new HandlerPool(
    { GRAPHQL_URL: apiFront.url, TOKEN_HANDLER_SECRET: secrets.current.secret, REDIS_PORT: String(redisPort) },
    (line) => journal.note('handler', line),
  );
  cleanups.push(() => handlers.stop());
  await handlers.start(['A', 'B']);
  log(`token handler A on ${handlers.instances[0]!.port}, B on ${handlers.instances[1]!.port}`);

  log(
    options.reuseBuild
      ? 'examples/nextjs: next start (an earlier build if there is one)'
      : 'examples/nextjs: next build, next start',
  );
  let next = await startNextjs({
    graphqlUrl: apiFront.url,
    wsUrl: apiFront.url.replace(/^http/, 'ws'),
    secrets: secrets.current,
    redisUrl,
    reuseBuild: options.reuseBuild,
  });
  cleanups.push(() => next.process.stop());
  const front = new FrontProxy(handlers, () => next.port);
  await front.listen();
  cleanups.push(() => front.close());
  log(`next start on ${next.port}, behind ${front.origin}`);

  log('examples/vite-spa: build, vite preview');
  const spa = await startViteSpa(apiFront.url);
  spaOrigin = spa.origin;
  cleanups.push(() => spa.process.stop());
  log(`vite preview at ${spa.origin}`);

  // A user's browser for each app (its own cookies and BroadcastChannel): timers throttled in hidden tabs, the
  // back/forward cache on (scripts/soak/UserBrowser.ts).
  const browsers = { nextjs: await launchUserBrowser(), 'vite-spa': await launchUserBrowser() };
  cleanups.push(() => Promise.all(Object.values(browsers).map((each) => each.close())));

  // The clock of the run starts now: what came before was building and starting.
  journal = new Journal();
  const apps = {
    nextjs: new AppTabs(
      'nextjs',
      `${front.origin}/?console`,
      'client-status',
      query,
      mutation,
      TABS_CLUB,
      TICKER_TAB,
      [admin, owner],
      options.seed,
      journal,
    ),
    'vite-spa': new AppTabs(
      'vite-spa',
      `${spa.origin}/?store=broadcast&console&log`,
      'status',
      query,
      mutation,
      TABS_CLUB,
      TICKER_TAB,
      [owner, admin],
      options.seed + 500,
      journal,
    ),
  };
  await apps.nextjs.start(browsers.nextjs, TABS_PER_APP);
  await apps['vite-spa'].start(browsers['vite-spa'], TABS_PER_APP);
  log(`${TABS_PER_APP} tabs of each app open and signed in`);
  const worker = await startServiceWorker({
    uri: apiFront.url,
    person: cashier,
    query,
    mutation,
    club: WORKER_CLUB,
    journal,
  });
  cleanups.push(() => worker.stop());

  const reuse: Array<{ t: number; count: number }> = [];
  let reuseSeen = 0;
  const watch = setInterval(() => {
    if (api.stats.reuseDetections === reuseSeen) return;
    reuse.push({ t: journal.now(), count: api.stats.reuseDetections - reuseSeen });
    journal.note('reuse', `the API detected ${api.stats.reuseDetections - reuseSeen} refresh token reuse(s)`);
    reuseSeen = api.stats.reuseDetections;
  }, 250);
  cleanups.push(() => clearInterval(watch));
  const allTabs = [...apps.nextjs.tabs, ...apps['vite-spa'].tabs];
  let turn = 0;
  let sampling = false;
  const heap = setInterval(() => {
    if (sampling) return;
    const tab = allTabs[turn++ % allTabs.length]!;
    const t = journal.now();
    const loads = tab.loads;
    sampling = true;
    // The snapshot holds the page's main thread for seconds: what the tab misses meanwhile, it follows after.
    const skipped = tab.frozen || tab.closed;
    const pause: PauseRecord = { tab: tab.name, app: tab.app, start: t, end: Number.NaN, why: 'heap-snapshot' };
    void tab.heapUsed().then((bytes) => {
      sampling = false;
      pause.end = journal.now();
      // A frozen or closed tab is not snapshotted; one that timed out may still be held: its pause ends at least here.
      if (!skipped) {
        journal.pauses.push(pause);
        journal.note('heap-snapshot', `held the page ${pause.end - pause.start} ms`, tab.name, tab.app, pause.start);
      }
      if (bytes === undefined || tab.loads !== loads) return;
      const samples = journal.heap.get(tab.name) ?? [];
      samples.push([t, bytes, loads]);
      journal.heap.set(tab.name, samples);
    });
  }, HEAP_EVERY);
  cleanups.push(() => clearInterval(heap));

  const targets: FaultTargets = {
    journal,
    apps,
    api: apiFront,
    server: api,
    handlers,
    redis,
    secrets,
    accessTokenTtlMs: options.accessTokenTtl * 1000,
    endsAt: journal.now() + durationMs,
  };
  const plan = planFaults(random, durationMs, TABS_PER_APP, options.accessTokenTtl * 1000);
  log(`workload running; ${plan.length} faults planned: ${plan.map((fault) => fault.kind).join(', ')}`);
  const running: Promise<void>[] = [];
  const timers = plan.map((fault) => setTimeout(() => running.push(runFault(fault, targets)), fault.at));
  const progress = setInterval(() => {
    const ops = journal.operations.filter((op) => op.ok !== undefined);
    log(
      `${(journal.now() / 1000).toFixed(0)} s: ${ops.length} operations (${ops.filter((op) => !op.ok).length} failed), ${journal.sessions.filter((each) => each.kind === 'refresh').length} refreshes, ${journal.faults.length} faults`,
    );
  }, 30_000);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  timers.forEach(clearTimeout);
  clearInterval(progress);
  // The faults still on end on their own; the log names them, so a run that does not end says what holds it.
  const holding = setInterval(() => {
    const on = journal.faults
      .filter((fault) => Number.isNaN(fault.end))
      .map((fault) => `${fault.kind} (${fault.target})`);
    log(`workload ended; waiting for ${on.length ? on.join(', ') : 'faults starting'}`);
  }, 30_000);
  await Promise.all(running);
  clearInterval(holding);
  const measured = journal.now();
  for (const app of Object.values(apps))
    for (const op of app.unsettled())
      journal.note(
        'unsettled',
        `operation ${op.id} from ${(op.start / 1000).toFixed(1)} s never settled`,
        op.tab,
        op.app,
      );

  const results = checkInvariants(journal, {
    durationMs: measured,
    accessTokenTtlMs: options.accessTokenTtl * 1000,
    reuse,
    renames: api.stats.renames,
  });
  const summary = writeReport(journal, results, options, measured, Math.round((Date.now() - wall) / 1000));
  for (const result of results) {
    console.log(`${result.passed ? 'passed' : 'FAILED'}  ${result.title}: ${result.measured}`);
    for (const violation of result.violations.slice(0, 5))
      console.log(
        `          ${(violation.t / 1000).toFixed(1)} s ${violation.tab ?? violation.app ?? ''}: ${violation.text}`,
      );
  }
  for (const figures of summary.costs) {
    const text = formatCosts(figures);
    console.log(
      `${figures.tab.padEnd(11)} ${text.refreshesPerHour} refreshes/h, scheduled refreshes late p50/p95/max ${text.lateness}, ` +
        `${text.onDemand} lifetimes ended on demand (${text.onDemandShare}), ${text.failedOutsideFaults} failed outside faults`,
    );
  }
  console.log(
    `${summary.tabs} tabs + worker, ${summary.sessions} sessions, ${summary.logins} logins, ${summary.refreshes} refreshes, ` +
      `${summary.operations.settled} operations (${summary.operations.failed} failed), ${journal.faults.length} faults; report in ${options.out}/index.html`,
  );
  if (options.results) await writeResultsSection(summary);
  verdict = `${summary.passed} passed, ${summary.failed} failed`;
  exitCode = summary.failed === 0 ? 0 : 1;
} catch (error) {
  console.error(`soak: ${(error as Error).stack ?? error}`);
} finally {
  await cleanUp();
}
// The last line, for CI and for people: the invariants' verdict.
console.log(verdict);
process.exit(exitCode);
