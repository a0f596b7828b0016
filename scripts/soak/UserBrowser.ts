import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  chromium,
  type LaunchOptions,
  type Page,
} from 'playwright-core';
import { SoakProcess } from './ChildProcess.ts';

// What a hidden page does here, measured with Debian's Chromium 156 (headless) and playwright-core 1.65: a chained
// `setTimeout(tick, 200)` in the page, the page hidden by the browser (another tab in front, or its window
// minimised), its gaps read afterwards.
//
// | Setup                                                                  | `visibilityState` | Timer gaps                    |
// |------------------------------------------------------------------------|-------------------|-------------------------------|
// | `chromium.launch()` (with or without `THROTTLING_OFF_SWITCHES`),       | `visible`         | 200 ms                        |
// |   `newContext()`, `newPage()`                                          |                   |                               |
// | the same, `Emulation.setFocusEmulationEnabled(false)` sent on a CDP    | `visible`         | 200 ms                        |
// |   session of our own (`context.newCDPSession(page)`)                   |                   |                               |
// | `chromium.launch()` with Playwright's switches, focus emulation turned | `hidden`          | 200 ms: throttling off        |
// |   off on Playwright's own session of the page (reached through its     |                   |                               |
// |   internals, not used)                                                 |                   |                               |
// | the same with `ignoreDefaultArgs: THROTTLING_OFF_SWITCHES`             | `hidden`          | 1,000 ms at once              |
// | `launchUserBrowser()`, hidden up to 60 s                               | `hidden`          | 1,000 ms at once              |
// | `launchUserBrowser()`, hidden longer than 60 s                         | `hidden`          | one wake-up a minute (the     |
// |                                                                        |                   |   first 43 s: minute-aligned) |
// | the same with `--enable-features=IntensiveWakeUpThrottling:`           | `hidden`          | the same, from 60 s           |
// |   `grace_period_seconds/10`, with its field-trial form, or with        |                   |                               |
// |   `--intensive-wake-up-throttling-policy=1`                            |                   |                               |
// | `launchUserBrowser()`, hidden while still loading (an image that never | `hidden`          | 1,000 ms throughout 45 s      |
// |   arrives), with or without `grace_period_seconds/10`                  |                   |                               |
//
// So intensive wake-up throttling starts 60 s after a loaded page is hidden, not 5 minutes: Chromium's source
// gives a loaded page `kIntensiveWakeUpThrottling_GracePeriodSecondsLoaded_Default` (60 s, features.h) and reads
// `grace_period_seconds` (5 minutes) only for a page still loading (`GetIntensiveWakeUpThrottlingGracePeriod`,
// features.cc). No switch shortened it; none is needed, a run shows it a minute after a tab is hidden.
// It applies to chained timers (a timer set from a timer's callback, from the fifth link on). The session's
// proactive timer is a single `setTimeout` set when a refresh answers: in the demo, hidden 110 s with 10-second
// tokens, it refreshed every 9.0 s throughout, while a chained timer beside it went from 1 s to one wake-up a
// minute at 60 s.
//
// The back/forward cache (`pageshow` with `persisted` after a `goBack`): off with Playwright's switches, on with
// `userBrowserLaunchOptions` and in `launchUserBrowser()`. A restored page fires no `load`: `page.goBack()` must
// wait with `{ waitUntil: 'commit' }`, or it times out.

/**
 * Playwright's default Chromium switches (playwright-core 1.65, `chromiumSwitches`) that turn off what a user's
 * browser does to a page in the background: throttle its timers, background its renderer and its occluded window,
 * and keep it in the back/forward cache when the user navigates away.
 */
export const THROTTLING_OFF_SWITCHES = [
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-back-forward-cache',
] as const;

/** Where the browser is: `CHROMIUM_PATH`, or Debian's Chromium (as `launchChromium` in test/e2e/browser.ts). */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * The switches {@link launchUserBrowser} starts Chromium with: headless, and quiet on this machine's closed
 * network (the ones `launchChromium` passes), with none of {@link THROTTLING_OFF_SWITCHES}.
 */
export const USER_BROWSER_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--password-store=basic',
  '--use-mock-keychain',
];

/**
 * Options for `chromium.launch` with throttling and the back/forward cache on, as in a user's browser.
 *
 * @remarks
 * Enough for a case that needs only the back/forward cache. Not for hidden tabs: a page that Playwright opens
 * in a browser it launched stays `visible` whatever is in front of it (see {@link launchUserBrowser}).
 */
export const userBrowserLaunchOptions: LaunchOptions = {
  executablePath: CHROMIUM,
  args: [...USER_BROWSER_ARGS],
  ignoreDefaultArgs: [...THROTTLING_OFF_SWITCHES],
};

/** Options of {@link launchUserBrowser}. */
export interface UserBrowserOptions {
  /** Further switches. */
  args?: readonly string[];
  /**
   * The size of each window {@link UserBrowser.openPage} opens; its page's viewport is smaller by the browser's
   * toolbar (900 × 513 for the default). @defaultValue 900 × 600
   */
  window?: { width: number; height: number };
}

// Chromium's helper processes outlive its main one by a moment and may still write to the profile while it is
// removed (CI saw ENOTEMPTY), so its removal retries.
const REMOVE_PROFILE = { recursive: true, force: true, maxRetries: 10, retryDelay: 100 } as const;

/**
 * A Chromium that treats its pages as a user's browser does: their timers throttled and their renderers
 * backgrounded when hidden, the back/forward cache on. Driven by Playwright: evaluate, click, CDP sessions and
 * heap snapshots work as in a browser Playwright launched.
 *
 * @remarks
 * Playwright turns on focus emulation (`Emulation.setFocusEmulationEnabled`) on its own session of every page of a
 * context it created, and Chromium counts that emulation as a capture of the page, which keeps it visible: behind
 * another tab or in a minimised window, such a page stays `visible` and its timers run on time, with or without
 * Playwright's switches. Turning it off from another session does nothing (each session has its own). Playwright
 * leaves it off only in the default context of a browser it connected to with `connectOverCDP(…, { noDefaults:
 * true })`, so this Chromium is started by us, with {@link USER_BROWSER_ARGS}, and that default context is the
 * one {@link UserBrowser.context}: one context, one cookie jar, per browser. An app whose tabs need a context of
 * their own needs a browser of its own.
 *
 * @example
 * ```ts
 * const user = await launchUserBrowser();
 * const page = await user.openPage();
 * await page.goto(url);
 * await user.hide(page); // `visibilityState` is 'hidden', its timers wake once a second, once a minute after 60 s
 * await user.show(page);
 * await user.close();
 * ```
 */
export class UserBrowser {
  private constructor(
    readonly browser: Browser,
    /** The browser's one context, where {@link openPage} opens pages. */
    readonly context: BrowserContext,
    private readonly chromiumProcess: SoakProcess,
    private readonly profile: string,
    private readonly windowSize: { width: number; height: number },
  ) {
    // Playwright kills the browsers it launched when Node exits; this one it only connected to.
    process.once('exit', this.killOnExit);
  }

  private readonly killOnExit = () => {
    this.chromiumProcess.process.kill('SIGKILL');
    rmSync(this.profile, REMOVE_PROFILE);
  };

  /** Starts Chromium with its DevTools on a free port and connects Playwright to it without its default overrides. */
  static async launch(options: UserBrowserOptions = {}): Promise<UserBrowser> {
    const profile = await mkdtemp(join(tmpdir(), 'soak-user-browser-'));
    const windowSize = options.window ?? { width: 900, height: 600 };
    const chromiumProcess = new SoakProcess(
      'chromium',
      CHROMIUM,
      [
        ...USER_BROWSER_ARGS,
        ...(options.args ?? []),
        `--user-data-dir=${profile}`,
        `--window-size=${windowSize.width},${windowSize.height}`,
        '--remote-debugging-port=0',
        'about:blank',
      ],
      { cwd: profile },
    );
    try {
      const [, endpoint] = await chromiumProcess.waitFor(/DevTools listening on (ws:\/\/\S+)/, 30_000);
      const browser = await chromium.connectOverCDP(endpoint!, { noDefaults: true, isLocal: true });
      return new UserBrowser(browser, browser.contexts()[0]!, chromiumProcess, profile, windowSize);
    } catch (error) {
      await chromiumProcess.stop();
      await rm(profile, REMOVE_PROFILE);
      throw error;
    }
  }

  /**
   * Opens a page in a window of its own, so that {@link hide} hides it alone. (`context.newPage()` opens a tab in
   * the browser's one window, where only the tab in front is visible.)
   */
  async openPage(): Promise<Page> {
    const browserSession = await this.browser.newBrowserCDPSession();
    try {
      const { targetId } = await browserSession.send('Target.createTarget', {
        url: 'about:blank',
        newWindow: true,
        ...this.windowSize,
      });
      // Playwright picks the new target up as a page of the context, soon after.
      for (let waited = 0; waited < 10_000; waited += 50) {
        for (const page of this.context.pages()) if ((await targetIdOf(page)) === targetId) return page;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`UserBrowser.openPage: the page of target ${targetId} did not show up within 10 s`);
    } finally {
      await browserSession.detach().catch(() => {});
    }
  }

  /**
   * Hides `page` as the browser does when its window is minimised: `document.visibilityState` turns `hidden`
   * (its `visibilitychange` fires), its timers are throttled, it loses focus. Every page of its window is hidden
   * with it. Resolves once the page says it is hidden.
   *
   * @remarks
   * A hidden page runs no animation frames, so what waits for one does not settle until {@link show}: Playwright's
   * `click` (it waits for the element to be stable), `waitForFunction` without `polling`. A person cannot click a
   * tab they do not see either. `evaluate`, CDP sessions and heap snapshots work.
   */
  async hide(page: Page): Promise<void> {
    await this.setWindowState(page, 'minimized');
    await waitForVisibility(page, 'hidden');
  }

  /** Shows `page` again (its window restored), and resolves once the page says it is visible. */
  async show(page: Page): Promise<void> {
    await this.setWindowState(page, 'normal');
    await waitForVisibility(page, 'visible');
  }

  /** Disconnects Playwright, stops Chromium and removes its profile. */
  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
    process.off('exit', this.killOnExit);
    await this.chromiumProcess.stop();
    await rm(this.profile, REMOVE_PROFILE);
  }

  private async setWindowState(page: Page, windowState: 'minimized' | 'normal'): Promise<void> {
    if (page.context() !== this.context) {
      throw new Error('UserBrowser: this page is not one of its pages; open it with openPage()');
    }
    await withSession(page, async (session) => {
      const { windowId } = await session.send('Browser.getWindowForTarget');
      await session.send('Browser.setWindowBounds', { windowId, bounds: { windowState } });
    });
  }
}

/** Starts a {@link UserBrowser}. */
export function launchUserBrowser(options?: UserBrowserOptions): Promise<UserBrowser> {
  return UserBrowser.launch(options);
}

const targetIds = new WeakMap<Page, string>();

async function targetIdOf(page: Page): Promise<string> {
  let id = targetIds.get(page);
  if (id === undefined) {
    id = await withSession(page, async (session) => (await session.send('Target.getTargetInfo')).targetInfo.targetId);
    targetIds.set(page, id);
  }
  return id;
}

async function withSession<T>(page: Page, use: (session: CDPSession) => Promise<T>): Promise<T> {
  const session = await page.context().newCDPSession(page);
  try {
    return await use(session);
  } finally {
    await session.detach().catch(() => {});
  }
}

/**
 * Waits for the browser to report `state`; throws after 5 s. A page whose visibility does not follow its window
 * is one Playwright keeps visible (a page of a browser that Playwright launched): a failure, not a slow page.
 */
async function waitForVisibility(page: Page, state: DocumentVisibilityState): Promise<void> {
  // On the event, not on a timer or an animation frame, which a hidden page runs late or not at all. A string,
  // not a function: tsx wraps named functions in a helper (`__name`) that the page does not have.
  const reported = page.evaluate(`new Promise((resolve) => {
    const check = () => {
      if (document.visibilityState !== ${JSON.stringify(state)}) return;
      document.removeEventListener('visibilitychange', check);
      resolve();
    };
    document.addEventListener('visibilitychange', check);
    check();
  })`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`UserBrowser: the page did not turn ${state} within 5 s; is it a page of launchUserBrowser()?`),
        ),
      5000,
    );
  });
  try {
    await Promise.race([reported, late]);
  } finally {
    clearTimeout(timer);
  }
}
