import { expect, vi } from 'vitest';
import { createTokenAuth, createTokenHandlerTransport, type TokenAuth } from '../../src';
import { pageFetch, type TokenHandlerRig } from './tokenHandler';

/** The origin of the page the tabs are opened at. */
export const APP = 'http://app.test';

/**
 * A tab of one browser, its requests to the handler sent to `instance`; the tabs share the cookie jar and the
 * channel. Disposed by `cleanups`.
 */
export function openHandlerTab(cleanups: Array<() => unknown>, rig: TokenHandlerRig, instance: string): TokenAuth {
  const routed: typeof fetch = (input, init) => fetch(String(input).replace(rig.origin, instance), init);
  const auth = createTokenAuth({
    transport: createTokenHandlerTransport(`${rig.origin}/auth`, { fetch: pageFetch(rig.jar, APP, routed) }),
    refreshOnResume: false,
    refreshFloor: 50,
    retryDelay: () => 1000,
  });
  cleanups.push(() => auth.dispose());
  return auth;
}

/** The status of each tab, in order. */
export const tabStatuses = (tabs: TokenAuth[]) => tabs.map((tab) => tab.getState().status);

/**
 * Waits up to the new token's proactive refresh, and expects it renewed upstream with no tab's session ended (the
 * defect it guards against: the handler refused it by itself).
 */
export async function expectRenewedUpstream(
  cleanups: Array<() => unknown>,
  rig: TokenHandlerRig,
  tabs: TokenAuth[],
): Promise<void> {
  const ended: unknown[] = [];
  for (const tab of tabs)
    cleanups.push(
      tab.subscribe(() => void (tab.getState().status === 'unauthenticated' && ended.push(tab.getState().ended))),
    );
  const loggedIn = rig.upstream.stats.refreshSuccesses;
  await vi.waitFor(() => expect(ended.length > 0 || rig.upstream.stats.refreshSuccesses > loggedIn).toBe(true), {
    timeout: 12_000,
    interval: 50,
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(ended).toEqual([]);
  expect(rig.upstream.stats.refreshSuccesses).toBeGreaterThan(loggedIn);
}
