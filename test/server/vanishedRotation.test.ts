import { describe, expect, it } from 'vitest';
import { createMemoryRotationCache, type RotationCache } from '../../src/server/RotationCache';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { postTo, SECRET, serveHandler } from '../helpers/tokenHandler';

// Found by the soak (30 minutes, seed 1, at 195 s): an instance was SIGKILLed while its refresh was on the wire, with
// the API slowed to 2 s. The API spent the token; the answer died with the process. Once the claim ran out, the
// next instance sent the same token again: reuse, and the API revoked the session.
const cleanups = useCleanups();
const TIMEOUT = 3000;

/** Two instances on one rotation cache; the first sends its refresh upstream, then stops as a killed process does. */
async function twoInstancesOneStopping() {
  const upstream = await startDemoServer(cleanups);
  const inner = createMemoryRotationCache();
  const claimed: string[] = [];
  // The claims the instances take, so that the test can let one run out as it does when its holder is gone.
  const cache: RotationCache = {
    ...inner,
    claim: async (key, ttl) => (await inner.claim(key, ttl)) && (claimed.push(key), true),
  };
  let out!: () => void;
  const sent = new Promise<void>((resolve) => (out = resolve));
  // The upstream gets the refresh, and answers it; the instance never reads the answer, nor does anything after.
  const stopping: typeof fetch = async (input, init) => {
    if (!String(init?.body).includes('refreshToken')) return fetch(input, init);
    await fetch(input, { ...init, signal: null });
    out();
    return new Promise<never>(() => {});
  };
  const origins = [
    await serveHandler(
      cleanups,
      createTokenHandler({
        uri: upstream.url,
        secret: SECRET,
        timeout: TIMEOUT,
        cache,
        fetch: stopping,
        onError: () => {},
      }),
    ),
    await serveHandler(
      cleanups,
      createTokenHandler({ uri: upstream.url, secret: SECRET, timeout: TIMEOUT, cache, onError: () => {} }),
    ),
  ];
  const login = await postTo(origins[1]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
  const cookie = login.setCookie[0]!.split(';')[0]!;
  const { accessToken } = login.body as { accessToken: string };
  return { upstream, inner, claimed, sent, origins, cookie, accessToken };
}

describe('an instance that stops while its refresh is on the wire', () => {
  it('never has its token sent again: the session ends as lost (401), with no reuse upstream', async () => {
    const rig = await twoInstancesOneStopping();
    void postTo(rig.origins[0]!, '/auth/refresh', { accessToken: rig.accessToken }, { cookie: rig.cookie }).catch(
      () => {},
    );
    await rig.sent;
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
    // The stopped instance's claim runs out: nothing of it is left but what it wrote before it sent the token.
    await rig.inner.release(rig.claimed[0]!);

    const after = await postTo(
      rig.origins[1]!,
      '/auth/refresh',
      { accessToken: rig.accessToken },
      { cookie: rig.cookie },
    );
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'SESSION_LOST' } });
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
    // Kept as the rotation's verdict: the next request with that cookie gets it too, without the upstream.
    const again = await postTo(
      rig.origins[1]!,
      '/auth/refresh',
      { accessToken: rig.accessToken },
      { cookie: rig.cookie },
    );
    expect(again.status).toBe(401);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
  });
});
