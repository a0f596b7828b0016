import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startRedisServer, stopRedisServer } from '../../test/helpers/redisProcess.ts';
import type { ApiFaultProxy } from './ApiFaultProxy.ts';
import type { SecretRing } from './exampleApps.ts';
import type { AppTabs } from './AppTabs.ts';
import type { HandlerPool } from './HandlerPool.ts';
import type { FaultRecord, Journal } from './Journal.ts';
import type { PlannedFault } from './planFaults.ts';
import type { Tab } from './Tab.ts';
import { ASLEEP, LID_CLOSED, sleepBrowser } from './sleepBrowser.ts';
import type { TestAuthServer } from '../../src/testing/index.ts';

/** What the faults act on. */
export interface FaultTargets {
  readonly journal: Journal;
  readonly apps: Readonly<Record<'nextjs' | 'vite-spa', AppTabs>>;
  readonly api: ApiFaultProxy;
  /** The API itself, for a fault switch of its own: refreshes answered late. */
  readonly server: TestAuthServer;
  readonly handlers: HandlerPool;
  readonly redis: { port: number; server: ChildProcess };
  /** The token handler's cookie secrets now, and a deploy of `next start` with other ones (its proxy opens the cookie). */
  readonly secrets: { current: SecretRing; redeployNext(ring: SecretRing): Promise<number> };
  /** The access tokens' life, in ms. */
  readonly accessTokenTtlMs: number;
  /** When the workload ends, on the journal's clock (ms): no fault waits past it for its moment. */
  readonly endsAt: number;
}

/**
 * How a secret rotation is rolled out, one instance at a time. `two-phase` (the default, what the handler's
 * documentation asks of several instances): first each of handler A, handler B and `next start` with the ring
 * [old, new] (the new one opens, the old still seals), then each with [new, old], so no part ever meets a cookie
 * sealed with a secret it does not know. `one-phase` (SOAK_ROTATION=one-phase) deploys each with [new, old] at once,
 * and shows what that costs: an instance not yet updated signs out a session whose cookie an updated one sealed.
 */
const ROTATION = process.env['SOAK_ROTATION'] === 'one-phase' ? 'one-phase' : 'two-phase';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a tab's fault held by a sleep waits past the wake, in ms: the wake invariant's window (5 s) and more. */
const AFTER_WAKE = 8000;

/** Tabs and system parts a fault holds now: another fault waits for them, or goes elsewhere. */
const busy = new Set<string>();

/**
 * Waits `ms`, and then for the browser to wake if a sleep began meanwhile (and the wake's first seconds): a tab's
 * fault ends with a person's act (back, reopen, sign in, show the tab, thaw it), which no one does with the lid
 * closed. Found by the 2-hour run (seed 1, 1941 s): a tab came back with the back button while the laptop slept,
 * loaded anew offline with every other tab frozen, and was signed out.
 */
async function untilAwake(ms: number): Promise<void> {
  await sleep(ms);
  if (!busy.has(LID_CLOSED)) return;
  while (busy.has(LID_CLOSED)) await sleep(500);
  await sleep(AFTER_WAKE);
}

/**
 * Causes `fault`, waits for its end (the tab back, the person signed in, the part running again), and journals
 * both. A fault whose target is held by another is moved to another tab of the app, or skipped.
 */
export async function runFault(fault: PlannedFault, targets: FaultTargets): Promise<void> {
  const { journal } = targets;
  if (fault.kind === 'sleep') return sleepBrowser(fault, targets, busy);
  // The whole browser asleep holds every tab: no one does anything in a tab with the lid closed. Before, the faults
  // due meanwhile all waited for the wake and began at once (on 15-minute tokens, dozens of them).
  if (fault.app && busy.has(ASLEEP)) {
    journal.note('fault', `${fault.kind} skipped: the browser is asleep`, undefined, fault.app);
    return;
  }
  if (fault.kind === 'frozen-refreshing') return frozenRefreshing(fault, targets);
  if (fault.app) {
    const app = targets.apps[fault.app];
    const personal = fault.kind === 'sign-out-in' || fault.kind === 'switch-user';
    const tabs = [...app.tabs.slice(fault.tab! - 1), ...app.tabs.slice(0, fault.tab! - 1)];
    // A person signs in and out in a tab that is open, not frozen and online (and one such change at a time).
    const tab = tabs.find(
      (each) => !busy.has(each.name) && !(personal && (busy.has(`${app.app} person`) || each.frozen || each.closed)),
    );
    if (!tab) return journal.note('fault', `${fault.kind} skipped: every tab of ${fault.app} is held by another fault`);
    busy.add(tab.name);
    if (personal) busy.add(`${app.app} person`);
    const record = journal.startFault(fault.kind, tab.name, app.app);
    try {
      journal.endFault(record, await inTab(fault, app, tab));
    } catch (error) {
      journal.endFault(record, `failed: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      busy.delete(tab.name);
      busy.delete(`${app.app} person`);
    }
    return;
  }
  if (busy.has(fault.kind)) return journal.note('fault', `${fault.kind} skipped: the last one is still on`);
  busy.add(fault.kind);
  let record: FaultRecord | undefined;
  try {
    switch (fault.kind) {
      case 'api-503':
      case 'api-slow':
        record = journal.startFault(fault.kind, 'api');
        targets.api.mode = fault.kind === 'api-503' ? '503' : 'slow';
        await sleep(fault.duration);
        targets.api.mode = 'normal';
        journal.endFault(record);
        break;
      case 'api-restart':
        record = journal.startFault(fault.kind, 'api');
        await targets.api.restart(fault.duration);
        journal.endFault(record, `down ${(fault.duration / 1000).toFixed(1)} s, sessions kept`);
        break;
      case 'handler-restart': {
        const instance = targets.handlers.instances[Math.round(fault.at / 1000) % targets.handlers.instances.length]!;
        record = journal.startFault(fault.kind, `handler ${instance.name}`);
        await targets.handlers.restart(instance, fault.duration);
        journal.endFault(
          record,
          `SIGKILL, down ${(fault.duration / 1000).toFixed(1)} s, back on port ${instance.port}`,
        );
        break;
      }
      case 'secret-rotation':
        record = journal.startFault(fault.kind, 'handler A, handler B, next start');
        journal.endFault(record, await rotateSecret(targets, fault.duration / 2));
        break;
      case 'redis-restart':
        record = journal.startFault(fault.kind, 'redis');
        await stopRedisServer(targets.redis.server, 'SIGKILL');
        await sleep(fault.duration);
        targets.redis.server = await startRedisServer(targets.redis.port);
        journal.endFault(record, `SIGKILL, down ${(fault.duration / 1000).toFixed(1)} s, back empty`);
        break;
    }
  } catch (error) {
    if (record) journal.endFault(record, `failed: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    busy.delete(fault.kind);
  }
}

/**
 * Freezes the tab of `fault.app` that holds the refresh (the lock the tabs refresh under, or the token handler's
 * rotation): the API answers refreshes 3 s late until one of the app's tabs sends one, and that tab is frozen at
 * once, its refresh in flight, for the fault's duration.
 */
async function frozenRefreshing(fault: PlannedFault, targets: FaultTargets): Promise<void> {
  const { journal, server } = targets;
  const app = targets.apps[fault.app!];
  const key = `${app.app} refreshing`;
  if (busy.has(key)) return journal.note('fault', `${fault.kind} skipped: the last one is still on`);
  busy.add(key);
  const record = journal.startFault(fault.kind, `${app.app} refresher`, app.app);
  server.faults.delayMs['refreshToken'] = 3000;
  let frozen: Tab | undefined;
  try {
    // A refresh comes once a token's life at least: wait that long, and 20 s for the soak's short tokens, but not
    // past the workload's end (on 15-minute tokens, a token's life would hold the run's end for up to 15 minutes).
    const wait = Math.min(Math.max(20_000, targets.accessTokenTtlMs), targets.endsAt - journal.now());
    if (wait <= 0) return journal.endFault(record, 'skipped: the workload has ended');
    const tab = await app.nextRefresher((each) => busy.has(each.name) || each.frozen || each.closed, wait);
    if (!tab) return journal.endFault(record, `no tab refreshed within ${wait / 1000} s`);
    frozen = tab;
    record.target = tab.name;
    busy.add(tab.name);
    await tab.setFrozen(true);
    delete server.faults.delayMs['refreshToken'];
    journal.note('fault', `froze ${tab.name}, its refresh in flight`, tab.name, app.app);
    await sleep(fault.duration);
    await tab.setFrozen(false);
    journal.endFault(record, `${tab.name}, frozen ${(fault.duration / 1000).toFixed(1)} s with its refresh in flight`);
  } catch (error) {
    journal.endFault(record, `failed: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    delete server.faults.delayMs['refreshToken'];
    if (frozen) busy.delete(frozen.name);
    busy.delete(key);
  }
}

/**
 * Rolls a new cookie secret out one part at a time (handler A, handler B, `next start`), waiting `stepMs` after
 * each: each new process starts with the ring and takes its part's place once it listens (a rolling deploy), and
 * cookies sealed with the old secret keep opening. Resolves with a note for the report.
 */
async function rotateSecret(targets: FaultTargets, stepMs: number): Promise<string> {
  const { journal, handlers, secrets } = targets;
  const old = secrets.current.secret;
  const fresh = randomBytes(32).toString('base64');
  const phases: SecretRing[] =
    ROTATION === 'two-phase'
      ? [
          { secret: old, old: fresh },
          { secret: fresh, old },
        ]
      : [{ secret: fresh, old }];
  for (const [index, ring] of phases.entries()) {
    const named = ring.secret === fresh ? '[new, old]' : '[old, new]';
    for (const instance of handlers.instances) {
      await handlers.redeploy(instance, { TOKEN_HANDLER_SECRET: ring.secret, TOKEN_HANDLER_SECRET_OLD: ring.old });
      journal.note(
        'fault',
        `secret-rotation: handler ${instance.name} deployed with the ring ${named}, on port ${instance.port}`,
      );
      await sleep(stepMs);
    }
    const port = await secrets.redeployNext(ring);
    journal.note('fault', `secret-rotation: next start deployed with the ring ${named}, on port ${port}`);
    handlers.setEnv({ TOKEN_HANDLER_SECRET: ring.secret, TOKEN_HANDLER_SECRET_OLD: ring.old });
    secrets.current = ring;
    if (index < phases.length - 1) await sleep(stepMs);
  }
  return `${ROTATION}, ${(stepMs / 1000).toFixed(1)} s between steps`;
}

/** Causes a fault in one tab; resolves with a note for the report. */
async function inTab(fault: PlannedFault, app: AppTabs, tab: Tab): Promise<string | undefined> {
  switch (fault.kind) {
    case 'offline':
      await tab.setOffline(true);
      await untilAwake(fault.duration);
      await tab.setOffline(false);
      return undefined;
    case 'hidden':
      await tab.setHidden(true);
      await untilAwake(fault.duration);
      await tab.setHidden(false);
      return undefined;
    case 'frozen':
      await tab.setFrozen(true);
      await untilAwake(fault.duration);
      await tab.setFrozen(false);
      return undefined;
    case 'reload':
      return reloadPatiently(app, tab, () => tab.page.reload());
    case 'back-forward':
      // A page kept in the back/forward cache has no request in flight (Chromium keeps none that has); one that is
      // not kept loses its operations, as in a reload.
      app.forgetPending(tab);
      return tab.awayAndBack(() => untilAwake(fault.duration));
    case 'close-reopen':
      app.forgetPending(tab);
      await tab.close();
      await untilAwake(fault.duration);
      return reloadPatiently(app, tab, () => tab.open());
    case 'sign-out-in':
    case 'switch-user': {
      // A session that a fault ended (a handler killed with its refresh on the wire: SESSION_LOST) left the tab
      // signed out: the person signs in again, with no sign-out to click. Before, every later sign-in of that app
      // failed on the missing button, and it stayed signed out for the rest of the run (seed 1, from 206 s).
      if ((await tab.screen()) !== 'signed-out') await tab.signOut();
      await untilAwake(fault.duration);
      const next = fault.kind === 'switch-user' ? app.people.find((person) => person !== app.person)! : app.person;
      app.person = next;
      await signInPatiently(tab, next.email, next.password);
      return `as ${next.email}`;
    }
    default:
      return undefined;
  }
}

/**
 * Loads the page, and again when it did not come up (an error page while the API was away): a person reloads.
 * Resolves with how many tries it took beyond the first, if any.
 */
async function reloadPatiently(app: AppTabs, tab: Tab, load: () => Promise<unknown>): Promise<string | undefined> {
  for (let tries = 1; ; tries++) {
    try {
      // The operations of the page it replaces cannot settle.
      app.forgetPending(tab);
      await load();
      await tab.settled(15_000);
      return tries > 1 ? `came up at try ${tries}` : undefined;
    } catch (error) {
      if (tries === 4) throw error;
      await sleep(2000);
      load = () => tab.page.reload();
    }
  }
}

/** Signs in, and again while the API is away (a person tries again), for up to 60 s. */
async function signInPatiently(tab: Tab, email: string, password: string): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await tab.screen()) === email) return;
      return await tab.signIn(email, password);
    } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(2000);
    }
  }
}
