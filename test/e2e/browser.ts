import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, vi } from 'vitest';
import { type Demo, startDemo } from '../../demo/startDemo';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y chromium ` +
        '(or set CHROMIUM_PATH). Browser tests do not pass without a browser.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Starts the demo (60-second access tokens) and Chromium with one browser context for the test file, and
 * closes both after it.
 */
export function useDemoInChromium() {
  const session = {} as { demo: Demo; browser: Browser; context: BrowserContext };
  beforeAll(async () => {
    session.demo = await startDemo({ port: 0, accessTokenTtl: 60 });
    session.browser = await launchChromium();
    session.context = await session.browser.newContext({ viewport: { width: 1100, height: 760 } });
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.demo?.close();
  });
  return session;
}

/**
 * A demo of its own whose auth server and token handler read a clock the test moves on: `clock.skew` ms ahead
 * of the real one (0 until set). `Date.now` is replaced for the test file from the start of the describe block.
 */
export function useDemoWithMovableClock(options: { accessTokenTtl: number }) {
  const realNow = Date.now;
  const clock = { skew: 0, demo: {} as Demo };
  beforeAll(async () => {
    // The server and the handler read `Date.now` when the demo starts: it must be the movable one by then.
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + clock.skew);
    clock.demo = await startDemo({ port: 0, ...options });
  });
  afterAll(async () => {
    await clock.demo.close?.();
    vi.restoreAllMocks();
  });
  return clock;
}
