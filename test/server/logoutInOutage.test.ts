import { describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenHandlerTransport, type TokenAuth } from '../../src';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { createMemoryRotationCache } from '../../src/server/RotationCache';
import { useCleanups } from '../helpers/overHttp';
import { pageFetch, SECRET, serveHandler, startTokenHandler, type TokenHandlerRig } from '../helpers/tokenHandler';

// Found by the soak (30 minutes, seed 2): two handler instances share the rotation cache; the API answered 503 for
// 14 s. A tab's refresh reached one instance while the other held the claim on the session's refresh token; that
// rotation failed with the 503 and let its claim go with no outcome. A person signed out in that tab (its logout
// waits for its refresh to settle) and signed in again once the API was back; at the new session's first
// proactive refresh every tab was signed out ("rejected") by the handler, with no call to the API.

const cleanups = useCleanups();
const OWNER = { email: 'owner@demo.test', password: 'owner-pass' };
const APP = 'http://app.test';
const UNAVAILABLE =
  '{"errors":[{"message":"Service Unavailable (soak fault)","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two handlers over one rotation cache, as two instances over one Redis, in front of an upstream that answers
 * every call with HTTP 503 (after 300 ms) while `down` is set, as the soak's API front does.
 */
async function twoInstances() {
  const outage = { down: false };
  const upstreamFetch: typeof fetch = async (input, init) => {
    if (!outage.down) return fetch(input, init);
    await sleep(300);
    return new Response(UNAVAILABLE, { status: 503, headers: { 'content-type': 'application/json' } });
  };
  const cache = createMemoryRotationCache();
  const options = { fetch: upstreamFetch, cache, origin: APP };
  const rig = await startTokenHandler(cleanups, { upstream: { accessTokenTtl: 6 }, handler: options });
  const other = await serveHandler(cleanups, createTokenHandler({ uri: rig.upstream.url, secret: SECRET, ...options }));
  return { rig, outage, instances: [rig.origin, other] };
}

/**
 * Waits up to the new token's proactive refresh, and expects it renewed upstream with no tab's session ended (the
 * defect: the handler refused it by itself).
 */
async function expectRenewedUpstream(rig: TokenHandlerRig, tabs: TokenAuth[]): Promise<void> {
  const ended: unknown[] = [];
  for (const tab of tabs)
    cleanups.push(
      tab.subscribe(() => void (tab.getState().status === 'unauthenticated' && ended.push(tab.getState().ended))),
    );
  const loggedIn = rig.upstream.stats.refreshSuccesses;
  await vi.waitFor(() => expect(ended.length || rig.upstream.stats.refreshSuccesses > loggedIn).toBeTruthy(), {
    timeout: 12_000,
    interval: 50,
  });
  await sleep(200);
  expect(ended).toEqual([]);
  expect(rig.upstream.stats.refreshSuccesses).toBeGreaterThan(loggedIn);
}

/** A tab of one browser, its requests to the handler sent to `instance`; the tabs share the cookie jar and the channel. */
function openTab(rig: TokenHandlerRig, instance: string): TokenAuth {
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

const statuses = (tabs: TokenAuth[]) => tabs.map((tab) => tab.getState().status);

describe("a refresh that waited for another instance's rotation, the upstream answering 503, then a sign-out and sign-in", () => {
  it('the new session is renewed upstream at its proactive refresh, and every tab stays signed in', async () => {
    const { rig, outage, instances } = await twoInstances();
    const [a, b] = instances as [string, string];
    const tabs = [openTab(rig, a), openTab(rig, a), openTab(rig, b)];
    const signer = tabs[2]!;
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['unauthenticated', 'unauthenticated', 'unauthenticated']));
    await signer.login(OWNER.email, OWNER.password);
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']));

    // The API goes away. A tab's refresh claims the rotation on one instance; a refresh of the signer's, on the
    // other, finds the claim taken and waits for its outcome; the rotation fails with the 503 and lets go.
    outage.down = true;
    const claimed = tabs[0]!.refresh().catch(() => {});
    await sleep(50);
    const sent = Date.now();
    const waited = signer.refresh().then(
      () => Date.now() - sent,
      () => Date.now() - sent,
    );
    await claimed;
    // It learns that the rotation got no verdict as soon as that rotation lets go, not after the whole claim.
    expect(await waited).toBeLessThan(1000);

    // The person signs out there (not awaited: the screen says "signed out" at once) and, once the API is back,
    // signs in again.
    const loggedOut = signer.logout().catch(() => {});
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['unauthenticated', 'unauthenticated', 'unauthenticated']));
    await sleep(500);
    outage.down = false;
    await sleep(500);
    await signer.login(OWNER.email, OWNER.password);
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']));
    await loggedOut;
    await expectRenewedUpstream(rig, tabs);
    expect(statuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  }, 40_000);
});

describe("a sign-out while the tab's refresh is on the wire, and a sign-in at once", () => {
  it('the logout, sent once the refresh settles, does not sign the new session out', async () => {
    const rig = await startTokenHandler(cleanups, { upstream: { accessTokenTtl: 6 }, handler: { origin: APP } });
    const tabs = [openTab(rig, rig.origin), openTab(rig, rig.origin)];
    const signer = tabs[1]!;
    await signer.login(OWNER.email, OWNER.password);
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['authenticated', 'authenticated']));

    rig.upstream.faults.delayMs['refreshToken'] = 1000;
    void signer.refresh().catch(() => {});
    await sleep(100);
    const loggedOut = signer.logout().catch(() => {});
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['unauthenticated', 'unauthenticated']));
    rig.upstream.faults.delayMs['refreshToken'] = 0;
    await signer.login(OWNER.email, OWNER.password);
    await loggedOut;
    await vi.waitFor(() => expect(statuses(tabs)).toEqual(['authenticated', 'authenticated']));
    await expectRenewedUpstream(rig, tabs);
  }, 30_000);
});
