import { describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { Journal } from '../../scripts/soak/Journal';
import { Tab } from '../../scripts/soak/Tab';
import type { UserBrowser } from '../../scripts/soak/UserBrowser';

/** A tab whose browser and CDP session write down what they are asked, in order. */
function recordingTab() {
  const calls: string[] = [];
  const user = {
    hide: async () => void calls.push('minimise'),
    show: async () => void calls.push('restore'),
  } as unknown as UserBrowser;
  const tab = new Tab('vite-spa', 'vite-spa#1', user, 'http://app.test/', {} as never, new WeakMap(), new Journal());
  tab.page = {} as Page;
  tab.cdp = {
    send: async (method: string, params?: { state?: string }) =>
      void calls.push(`${method} ${params?.state ?? ''}`.trim()),
  } as unknown as CDPSession;
  return { tab, calls };
}

// A colleague's soak run: the freeze paused the page in the debugger too, and Chromium then dropped every
// BroadcastChannel message but the first, so a tab stayed signed out after a thaw. A browser drops none.
describe("the soak's frozen tab, frozen as a user's browser freezes a background tab", () => {
  it('a visible tab: its window minimised, then the lifecycle frozen; at the thaw, active, then the window shown', async () => {
    const { tab, calls } = recordingTab();
    await tab.setFrozen(true);
    expect(tab.frozen).toBe(true);
    await tab.setFrozen(false);

    expect(calls).toEqual([
      'minimise',
      'Page.setWebLifecycleState frozen',
      'Page.setWebLifecycleState active',
      'restore',
    ]);
    expect(tab.frozen).toBe(false);
  });

  it('a tab already hidden (a sleep hides every window first): frozen and thawed, and left hidden', async () => {
    const { tab, calls } = recordingTab();
    await tab.setHidden(true);
    calls.length = 0;
    await tab.setFrozen(true);
    await tab.setFrozen(false);

    expect(calls).toEqual(['Page.setWebLifecycleState frozen', 'Page.setWebLifecycleState active']);
  });
});
