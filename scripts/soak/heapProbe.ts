// `npx tsx scripts/soak/heapProbe.ts [--minutes 5] [--store broadcast|memory] [--tabs 1] [--probe soak|bare]
// [--network] [--console] [--faults] [--snapshots DIR] [--snap-tab N]`: what grows in a vite-spa tab under the
// soak's workload. Starts the API (10 s access tokens) and examples/vite-spa, opens the tabs, signs in, runs a `me`
// query every 1 to 3 s in each (`--probe soak`: the soak's pageProbe and its binding; `bare`: the same loop,
// reporting nothing), samples every tab's heap after a GC every 10 s and prints each slope. `--network` adds the
// soak's own Network.enable, `--console` a console listener, `--faults` the first tab's faults every minute (frozen,
// offline, hidden, signed out and in) and a reload of the second. `--snapshots` writes heap snapshots of tab N at
// 1 min (`--first-at M`) and at the end and prints what grew between them, by constructor, with retaining paths.
// `npx tsx scripts/soak/heapProbe.ts --compare a.heapsnapshot b.heapsnapshot [--paths 'object:Promise']` compares two.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'graphql';
import type { CDPSession, Page } from 'playwright-core';
import { createTestAuthServer, TEST_USERS } from '../../src/testing/index.ts';
import { launchChromium } from '../../test/e2e/browser.ts';
import { startViteSpa } from './exampleApps.ts';
import { type Snapshot, takeHeapSnapshot } from './heapSnapshot.ts';
import { pageProbe } from './pageProbe.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1]! : fallback;
};

/** Count and self size per class of node (`object:Map`, `closure:look`, `string`, …), and the ids of its nodes. */
function census(snap: Snapshot) {
  const {
    node_fields: nf,
    node_types: [types],
  } = snap.snapshot.meta;
  const width = nf.length;
  const [TYPE, NAME, ID, SIZE] = ['type', 'name', 'id', 'self_size'].map((field) => nf.indexOf(field));
  const classes = new Map<string, { count: number; size: number; ids: Set<number> }>();
  for (let at = 0; at < snap.nodes.length; at += width) {
    const type = types[snap.nodes[at + TYPE!]!]!;
    const name = snap.strings[snap.nodes[at + NAME!]!]!;
    const key = /string/.test(type) || type === 'number' ? type : `${type}:${name.slice(0, 70)}`;
    const entry = classes.get(key) ?? { count: 0, size: 0, ids: new Set<number>() };
    entry.count += 1;
    entry.size += snap.nodes[at + SIZE!]!;
    entry.ids.add(snap.nodes[at + ID!]!);
    classes.set(key, entry);
  }
  return classes;
}

/**
 * A retaining path of a node from the GC roots: each node's retainer is the one closest to the root (BFS over
 * strong edges), as DevTools' first retainer usually is.
 */
function retainingPaths(snap: Snapshot, ids: number[], limit = 3): string[] {
  const {
    node_fields: nf,
    node_types: [types],
    edge_fields: ef,
    edge_types: [edgeTypes],
  } = snap.snapshot.meta;
  const width = nf.length;
  const ew = ef.length;
  const [TYPE, NAME, ID, EDGES] = ['type', 'name', 'id', 'edge_count'].map((field) => nf.indexOf(field)) as [
    number,
    number,
    number,
    number,
  ];
  const [ETYPE, ENAME, ETO] = ['type', 'name_or_index', 'to_node'].map((field) => ef.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const count = snap.nodes.length / width;
  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    firstEdge[n] = e;
    e += snap.nodes[n * width + EDGES]! * ew;
    firstEdge[n + 1] = e;
  }
  const parent = new Int32Array(count).fill(-1);
  const parentEdge = new Int32Array(count).fill(-1);
  const seen = new Uint8Array(count);
  const queue = [0];
  seen[0] = 1;
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += ew) {
      const kind = edgeTypes[snap.edges[e + ETYPE]!];
      if (kind === 'weak' || kind === 'shortcut') continue;
      const to = snap.edges[e + ETO]! / width;
      if (seen[to]) continue;
      seen[to] = 1;
      parent[to] = n;
      parentEdge[to] = e;
      queue.push(to);
    }
  }
  const byId = new Map<number, number>();
  for (let n = 0; n < count; n++) byId.set(snap.nodes[n * width + ID]!, n);
  const label = (n: number) =>
    `${types[snap.nodes[n * width + TYPE]!]}:${snap.strings[snap.nodes[n * width + NAME]!]!.slice(0, 50)}`;
  const paths: string[] = [];
  for (const id of ids.slice(0, limit)) {
    let n = byId.get(id);
    if (n === undefined) continue;
    const steps: string[] = [label(n)];
    while (n > 0 && parent[n]! >= 0 && steps.length < 40) {
      const e = parentEdge[n]!;
      const kind = edgeTypes[snap.edges[e + ETYPE]!];
      const nameOrIndex = snap.edges[e + ENAME]!;
      const edge = kind === 'element' || kind === 'hidden' ? `[${nameOrIndex}]` : `.${snap.strings[nameOrIndex]}`;
      n = parent[n]!;
      steps.push(`${label(n)} ${edge}`);
    }
    paths.push(steps.join('\n      <- '));
  }
  return paths;
}

function compare(before: Snapshot, after: Snapshot, minutes: number) {
  const a = census(before);
  const b = census(after);
  const rows = [...b].map(([key, entry]) => {
    const old = a.get(key) ?? { count: 0, size: 0, ids: new Set<number>() };
    const fresh = [...entry.ids].filter((id) => !old.ids.has(id));
    return { key, count: entry.count - old.count, size: entry.size - old.size, fresh };
  });
  const total = (c: typeof a) => [...c.values()].reduce((sum, each) => sum + each.size, 0);
  console.log(
    `snapshot self size ${(total(a) / 1e6).toFixed(2)} MB -> ${(total(b) / 1e6).toFixed(2)} MB over ${minutes.toFixed(1)} min`,
  );
  console.log('top growers (self size delta, count delta, new objects since the first snapshot):');
  const top = rows.sort((x, y) => y.size - x.size).slice(0, 30);
  for (const row of top)
    console.log(
      `  ${(row.size / 1024).toFixed(1).padStart(9)} KB  ${String(row.count).padStart(7)}  ${String(row.fresh.length).padStart(7)} new  ${row.key}`,
    );
  const wanted = option('paths', '');
  for (const row of wanted ? rows.filter((each) => each.key === wanted) : top.slice(0, 6)) {
    if (row.fresh.length === 0) continue;
    console.log(`retaining paths of new ${row.key}:`);
    // Spread over the new ones: the latest are often still in flight, not retained for good.
    const sample = [row.fresh[0]!, row.fresh[Math.floor(row.fresh.length / 2)]!, row.fresh.at(-1)!];
    for (const path of retainingPaths(after, sample, 3)) console.log(`    ${path}`);
  }
}

async function takeSnapshot(cdp: CDPSession, file: string): Promise<Snapshot> {
  const { snapshot, text } = await takeHeapSnapshot(cdp);
  writeFileSync(file, text);
  return snapshot;
}

/** The soak's workload without its reports: a `me` query every 1 to 3 s while signed in. */
function bareWorkload(config: { query: unknown }) {
  const w = window as unknown as {
    auth?: { getState(): { status: string } };
    client?: { query(options: unknown): Promise<unknown> };
  };
  const loop = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
    if (w.client && w.auth?.getState().status === 'authenticated')
      await w.client.query({ query: config.query, fetchPolicy: 'network-only' }).catch(() => {});
    void loop();
  };
  void loop();
}

// A frozen tab is not sampled, as in the soak.
let frozen = false;
const others: Page[] = [];
async function cycleFaults(page: Page, cdp: CDPSession) {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  frozen = true;
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  await pause(12_000);
  await cdp.send('Debugger.resume').catch(() => {});
  await cdp.send('Debugger.disable');
  await cdp.send('Page.setWebLifecycleState', { state: 'active' });
  frozen = false;
  await pause(5000);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await pause(12_000);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await pause(5000);
  for (const hidden of [true, false]) {
    await page.evaluate(scriptedVisibility(hidden));
    if (hidden) await pause(12_000);
  }
  await pause(3000);
  await page.getByTestId('sign-out').click({ timeout: 10_000 });
  await page.getByTestId('status').getByText('Signed out').waitFor({ timeout: 20_000 });
  await page.getByTestId('email').fill(owner.email);
  await page.getByTestId('password').fill(owner.password);
  await page.getByTestId('sign-in-button').click();
  await page.getByTestId('status').getByText(`Signed in as ${owner.email}`).waitFor({ timeout: 20_000 });
  // Another tab of the session reloads: a new peer on the channel, the old one gone.
  if (others[0]) await others[0].reload();
}

if (flag('compare')) {
  const [first, second] = argv.slice(argv.indexOf('--compare') + 1);
  compare(
    JSON.parse(readFileSync(first!, 'utf8')),
    JSON.parse(readFileSync(second!, 'utf8')),
    Number(option('minutes', '0')),
  );
  process.exit(0);
}

const minutes = Number(option('minutes', '5'));
const store = option('store', 'broadcast');
const tabs = Number(option('tabs', '1'));
const probe = option('probe', 'soak');
const snapshots = option('snapshots', '');
const query = parse('query SoakMe { me { id email } }', { noLocation: true });
const owner = TEST_USERS.find((user) => user.email === 'owner@demo.test')!;
const cleanups: Array<() => unknown> = [];
const wall = Date.now();
const log = (text: string) => console.log(`[heap ${((Date.now() - wall) / 1000).toFixed(0).padStart(4)} s] ${text}`);
try {
  const api = createTestAuthServer({ accessTokenTtl: 10 });
  await api.listen(0, '127.0.0.1');
  cleanups.push(() => api.close());
  const spa = await startViteSpa(api.url);
  cleanups.push(() => spa.process.stop());
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
  let reports = 0;
  if (probe === 'soak') await context.exposeBinding('__soakReport', () => void (reports += 1));
  if (flag('console')) context.on('console', () => {});
  const url = `${spa.origin}/?${store === 'broadcast' ? 'store=broadcast&' : ''}console`;
  log(
    `store ${store}, ${tabs} tab(s), probe ${probe}, Network.enable ${flag('network')}, console listener ${flag('console')}`,
  );
  const pages: Array<{ page: Page; cdp: CDPSession }> = [];
  for (let index = 1; index <= tabs; index++) {
    const page = await context.newPage();
    const init =
      probe === 'soak'
        ? `(${pageProbe.toString()})(${JSON.stringify({ seed: index, status: 'status', query })})`
        : `(${bareWorkload.toString()})(${JSON.stringify({ query })})`;
    await page.addInitScript({ content: `globalThis.__name ??= (f) => f;\n${init};` });
    const cdp = await context.newCDPSession(page);
    if (flag('network')) await cdp.send('Network.enable');
    await page.goto(url);
    await page
      .getByTestId('status')
      .filter({ hasText: /^(Signed in as|Signed out)/ })
      .first()
      .waitFor({ timeout: 20_000 });
    if (index === 1) {
      await page.getByTestId('email').fill(owner.email);
      await page.getByTestId('password').fill(owner.password);
      await page.getByTestId('sign-in-button').click();
    }
    await page.getByTestId('status').getByText(`Signed in as ${owner.email}`).waitFor({ timeout: 20_000 });
    pages.push({ page, cdp });
  }
  const { cdp } = pages[0]!;
  others.push(...pages.slice(1).map(({ page }) => page));
  // `--faults`: the soak's tab faults on the measured tab, as Tab does them, one after another: frozen, offline, hidden.
  const faults = flag('faults')
    ? setInterval(() => void cycleFaults(pages[0]!.page, cdp).catch((error) => log(`fault: ${error}`)), 60_000)
    : undefined;
  cleanups.push(() => clearInterval(faults));
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  // `--snap-tab N`: the tab whose heap is snapshot (from 1); every tab is sampled, each after a GC.
  const snapped = pages[Number(option('snap-tab', '1')) - 1]!.cdp;
  const samples = pages.map(() => [] as Array<[number, number]>);
  const start = Date.now();
  let first: Snapshot | undefined;
  let firstAt = 0;
  while (Date.now() - start < minutes * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const t = (Date.now() - start) / 60_000;
    for (const [index, each] of pages.entries()) {
      if (frozen && index === 0) continue;
      await each.cdp.send('HeapProfiler.collectGarbage');
      samples[index]!.push([t, (await each.cdp.send('Runtime.getHeapUsage')).usedSize]);
    }
    if (snapshots && !first && t >= Number(option('first-at', '1'))) {
      first = await takeSnapshot(snapped, `${snapshots}/first.heapsnapshot`);
      firstAt = t;
      log('first snapshot taken');
    }
    if (samples[0]!.length % 6 === 0)
      log(
        `${t.toFixed(1)} min: ${samples.map((each) => (each.at(-1)![1] / 1e6).toFixed(2)).join(', ')} MB; ${reports} reports, ${api.stats.refreshSuccesses} refreshes`,
      );
  }
  for (const [index, points] of samples.entries()) {
    // Least squares over the samples after the first minute (warm-up: chunks loaded, caches filled).
    const fit = points.filter(([t]) => t >= 1);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const mt = mean(fit.map(([t]) => t));
    const mb = mean(fit.map(([, b]) => b));
    const slope =
      fit.reduce((sum, [t, b]) => sum + (t - mt) * (b - mb), 0) / fit.reduce((sum, [t]) => sum + (t - mt) ** 2, 0);
    console.log(
      `tab ${index + 1} heap after GC: ${(points[0]![1] / 1e6).toFixed(2)} MB -> ${(points.at(-1)![1] / 1e6).toFixed(2)} MB; slope ${(slope / 1024).toFixed(1)} KB/min`,
    );
  }
  if (snapshots && first) {
    const last = await takeSnapshot(snapped, `${snapshots}/last.heapsnapshot`);
    compare(first, last, (Date.now() - start) / 60_000 - firstAt);
  }
} catch (error) {
  console.error((error as Error).stack ?? error);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch(() => {});
}
process.exit();

/**
 * Scripted visibility, named as such: makes a page see itself hidden (or visible again) by redefining
 * `document.visibilityState` and firing `visibilitychange`. The browser does not hide the page, and its timers run
 * on time; enough here, where what counts is what the page's code keeps after the events. The soak hides tabs for
 * real (`Tab.setHidden`).
 */
function scriptedVisibility(hidden: boolean): string {
  return `(() => {
    const state = ${hidden ? "'hidden'" : "'visible'"};
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    window.dispatchEvent(new Event(state === 'hidden' ? 'blur' : 'focus'));
  })()`;
}
