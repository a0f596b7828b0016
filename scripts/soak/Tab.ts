import type { CDPSession, Page } from 'playwright-core';
import type { AppName, Journal } from './Journal.ts';
import { jsObjectBytes, takeHeapSnapshot } from './heapSnapshot.ts';
import { pageProbe, type ProbeConfig } from './pageProbe.ts';
import type { UserBrowser } from './UserBrowser.ts';

/**
 * One tab of an app: its page (a new one after a close and reopen), a CDP session on it (freeze, offline, heap),
 * and whether a fault holds it.
 */
export class Tab {
  page!: Page;
  cdp!: CDPSession;
  frozen = false;
  closed = true;
  /** On another site, its page kept (or not) in the back/forward cache. */
  away = false;
  /** How many documents it has loaded (a reload or a reopen starts a new one). */
  loads = 0;
  /** Its window minimised ({@link setHidden}); a new window (a reopen) is not. */
  private hidden = false;
  /** The window a freeze minimised, which its thaw shows again. */
  private hiddenByFreeze = false;

  constructor(
    readonly app: AppName,
    readonly name: string,
    /** The browser of its app: a user's, whose pages it can really hide. */
    private readonly user: UserBrowser,
    private readonly url: string,
    private readonly probe: ProbeConfig,
    private readonly pages: WeakMap<Page, Tab>,
    private readonly journal: Journal,
  ) {}

  /** Opens the tab (again) at the app's URL, and resolves once the page shows who is signed in. */
  async open(): Promise<void> {
    // A window of its own, so that hiding it hides this tab alone.
    this.page = await this.user.openPage();
    this.hidden = false;
    this.hiddenByFreeze = false;
    this.pages.set(this.page, this);
    // tsx names functions with a helper (`__name`) that the page does not have.
    await this.page.addInitScript({
      content: `globalThis.__name ??= (f) => f;\n(${pageProbe.toString()})(${JSON.stringify(this.probe)});`,
    });
    this.page.on('load', () => (this.loads += 1));
    this.cdp = await this.user.context.newCDPSession(this.page);
    await this.cdp.send('Network.enable');
    this.closed = false;
    await this.page.goto(this.url);
    await this.settled();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.page.close();
  }

  /** Resolves once the page shows a user or the sign-in form. */
  async settled(timeout = 20_000): Promise<void> {
    await this.page.waitForFunction(
      (status) =>
        /^(Signed in as|Signed out)/.test(
          document.querySelector(`[data-testid="${status}"]`)?.textContent?.trim() ?? '',
        ),
      this.probe.status,
      { timeout },
    );
  }

  /** What the page shows now: an e-mail, `signed-out` or `loading`. */
  async screen(): Promise<string> {
    const text = ((await this.page.getByTestId(this.probe.status).first().textContent({ timeout: 5000 })) ?? '').trim();
    return /^Signed in as (.+)$/.exec(text)?.[1] ?? (text.startsWith('Signed out') ? 'signed-out' : 'loading');
  }

  /** Signs `email` in through the page's form, as a person would. */
  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByTestId('email').fill(email, { timeout: 10_000 });
    await this.page.getByTestId('password').fill(password);
    await this.page.getByTestId('sign-in-button').click();
    await this.page.getByTestId(this.probe.status).getByText(`Signed in as ${email}`).waitFor({ timeout: 20_000 });
  }

  /** Clicks Sign out and waits for the sign-in form. */
  async signOut(): Promise<void> {
    await this.page.getByTestId('sign-out').click({ timeout: 10_000 });
    await this.page.getByTestId(this.probe.status).getByText('Signed out').waitFor({ timeout: 20_000 });
  }

  /**
   * Freezes the tab, or thaws it, as a user's browser freezes a background tab: hidden (its window minimised
   * first, if a fault has not hidden it already), then `Page.setWebLifecycleState` `frozen` (`freeze` fires). The
   * thaw sets it `active` (`resume` fires) and shows the window again if the freeze hid it.
   *
   * @remarks
   * Measured (Debian's Chromium 156, a 4 s freeze, 10 BroadcastChannel messages from another window): no timer,
   * no fetch answer, no MessageChannel task runs until the thaw, while each BroadcastChannel message reaches its
   * handler at once, in order, and none is lost. The debugger's pause, used before, let the first message through
   * at the thaw and dropped the other nine, which no browser does (docs/soak.md, "A user's browser"). The window
   * is minimised because `frozen` turns the page `hidden` and `active` does not turn it back: only a window
   * shown again does.
   */
  async setFrozen(frozen: boolean): Promise<void> {
    this.frozen = frozen;
    if (frozen) {
      if (!this.hidden) {
        await this.setHidden(true);
        this.hiddenByFreeze = true;
      }
      await this.cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    } else {
      await this.cdp.send('Page.setWebLifecycleState', { state: 'active' });
      if (this.hiddenByFreeze) {
        this.hiddenByFreeze = false;
        await this.setHidden(false);
      }
    }
  }

  /** Takes this tab alone off the network (CDP emulation: `navigator.onLine` and its events follow), or back. */
  async setOffline(offline: boolean): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }

  /**
   * Hides the tab, or shows it again, as a user's browser does: its window minimised or restored. The browser
   * itself turns `document.visibilityState` and fires `visibilitychange`, aligns the page's timers to the second,
   * and wakes its chained timers once a minute after 60 s hidden. Resolves once the page says so.
   */
  async setHidden(hidden: boolean): Promise<void> {
    await (hidden ? this.user.hide(this.page) : this.user.show(this.page));
    this.hidden = hidden;
  }

  /**
   * Leaves the app for another site, and comes back with the back button once `away` resolves, as a person does. Resolves
   * with how it came back: restored from the back/forward cache, or loaded anew (with Chromium's reasons why not).
   * The page elsewhere counts as a load, so a restored page's heap samples are a stretch of their own.
   */
  async awayAndBack(away: () => Promise<unknown>): Promise<string> {
    const reasons = new Set<string>();
    const notUsed = (event: { notRestoredExplanations: Array<{ reason: string }> }) =>
      event.notRestoredExplanations.forEach((each) => reasons.add(each.reason));
    await this.cdp.send('Page.enable');
    this.cdp.on('Page.backForwardCacheNotUsed', notUsed);
    this.away = true;
    try {
      await this.page.goto(ELSEWHERE);
      await away();
      // A page restored from the back/forward cache fires no `load`.
      await this.page.goBack({ waitUntil: 'commit' });
      await this.settled(15_000);
    } finally {
      this.away = false;
      this.cdp.off('Page.backForwardCacheNotUsed', notUsed);
    }
    return reasons.size > 0 ? `loaded anew: ${[...reasons].join(', ')}` : 'restored from the back/forward cache';
  }

  /**
   * The bytes of the page's own JS objects after a garbage collection, from a heap snapshot ({@link jsObjectBytes}):
   * not V8's whole heap, whose compiled code grows for a long time as faults warm new paths. `undefined` when the
   * tab cannot say now (closed, frozen, or no snapshot within 15 s).
   */
  async heapUsed(): Promise<number | undefined> {
    if (this.closed || this.frozen || this.away) return undefined;
    const cdp = this.cdp;
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000).unref());
    return Promise.race([
      takeHeapSnapshot(cdp).then(
        ({ snapshot }) => jsObjectBytes(snapshot),
        () => undefined,
      ),
      timeout,
    ]);
  }
}

/** Another site, where a person goes before coming back with the back button. */
const ELSEWHERE = 'data:text/html,<title>Elsewhere</title><p>Another site</p>';
