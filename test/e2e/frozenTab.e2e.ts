import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../scripts/soak/Journal';
import { Tab } from '../../scripts/soak/Tab';
import { launchUserBrowser, type UserBrowser } from '../../scripts/soak/UserBrowser';

// The page: a 100 ms interval, and a log of what reaches it (BroadcastChannel messages on two channels, the
// lifecycle and visibility events), each with `Date.now()` and the visibility it saw.
const PAGE = `<!doctype html><title>frozen</title><script>
  const record = (kind, extra) => log.push({ kind, at: Date.now(), visibility: document.visibilityState, ...extra });
  window.log = [];
  window.ticks = [];
  setInterval(() => ticks.push(Date.now()), 100);
  for (const name of ['one', 'two']) new BroadcastChannel(name).onmessage = (event) => record('message', { data: event.data });
  for (const kind of ['freeze', 'resume', 'visibilitychange']) document.addEventListener(kind, () => record(kind));
</script>`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: Server;
let url: string;
let user: UserBrowser;

beforeAll(async () => {
  server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  user = await launchUserBrowser();
});

afterAll(async () => {
  await user?.close();
  server?.close();
});

/** A soak tab on the page, opened without the soak's probe: only its freeze is under test. */
async function openTab(): Promise<Tab> {
  const tab = new Tab('vite-spa', 'vite-spa#1', user, url, {} as never, new WeakMap(), new Journal());
  tab.page = await user.openPage();
  tab.cdp = await user.context.newCDPSession(tab.page);
  await tab.page.goto(url);
  return tab;
}

describe("a tab the soak freezes, in a user's Chromium", () => {
  it('runs no timer while frozen; every message another window sends meanwhile reaches it, in order; shown again at the thaw', async () => {
    const tab = await openTab();
    const sender: Page = await user.openPage();
    await sender.goto(url);
    await sleep(500);

    await tab.setFrozen(true);
    const frozenAt = Date.now();
    const sent = Array.from({ length: 10 }, (_, i) => i + 1);
    for (const n of sent) {
      await sender.evaluate(`new BroadcastChannel(${JSON.stringify(n % 2 ? 'one' : 'two')}).postMessage(${n})`);
      await sleep(200);
    }
    await sleep(1000);
    const thawAt = Date.now();
    await tab.setFrozen(false);
    await sleep(500);

    const { log, ticks, visibility } = (await tab.page.evaluate(
      '({ log, ticks, visibility: document.visibilityState })',
    )) as {
      log: Array<{ kind: string; at: number; visibility: string; data?: number }>;
      ticks: number[];
      visibility: string;
    };
    const messages = log.filter((each) => each.kind === 'message');
    // Measured: 0 ticks in 3 s frozen (4 in 4 s hidden only, 10 a second visible).
    expect(ticks.filter((at) => at > frozenAt + 50 && at < thawAt)).toEqual([]);
    expect(ticks.filter((at) => at > thawAt).length).toBeGreaterThan(0);
    // Chromium hands a frozen page its BroadcastChannel messages at once; a freeze with the debugger's pause let
    // the first through at the thaw and dropped the other nine.
    expect(messages.map((each) => each.data)).toEqual(sent);
    expect(messages.every((each) => each.visibility === 'hidden')).toBe(true);
    expect(log.filter((each) => each.kind !== 'message').map((each) => `${each.kind} ${each.visibility}`)).toEqual([
      'visibilitychange hidden',
      'freeze hidden',
      'resume hidden',
      'visibilitychange visible',
    ]);
    expect(visibility).toBe('visible');
    await sender.close();
  });
});
