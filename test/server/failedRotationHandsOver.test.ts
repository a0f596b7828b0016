import { describe, expect, it } from 'vitest';
import { createMemoryRotationCache } from '../../src/server/RotationCache';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { postTo, SECRET, serveHandler } from '../helpers/tokenHandler';

// Found by the soak (30 minutes, seed 2): an instance's upstream refresh failed during an outage, and a request
// waiting on another instance for that rotation waited out the whole bound (timeout + 1 s) before its 503, which
// reached the page seconds after the API was back.
const cleanups = useCleanups();
const TIMEOUT = 3000;

describe('a rotation that fails upstream on one instance while another waits for it', () => {
  it('lets the waiting request go at once: it renews the session itself, well within the bound', async () => {
    const upstream = await startDemoServer(cleanups);
    const cache = createMemoryRotationCache();
    // The first instance's refresh fails after 300 ms, as during an outage (the API never got it); the second
    // instance asks while it is out.
    let out!: () => void;
    const sent = new Promise<void>((resolve) => (out = resolve));
    const outage: typeof fetch = async (input, init) => {
      if (String(init?.body).includes('refreshToken')) {
        out();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return new Response('{"errors":[{"message":"Service Unavailable"}]}', {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fetch(input, init);
    };
    const origins = [
      await serveHandler(
        cleanups,
        createTokenHandler({
          uri: upstream.url,
          secret: SECRET,
          timeout: TIMEOUT,
          cache,
          fetch: outage,
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
    const failing = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await sent;
    const started = Date.now();
    const waiting = await postTo(origins[1]!, '/auth/refresh', { accessToken }, { cookie });

    expect((await failing).status).toBe(503);
    expect(waiting.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(TIMEOUT);
    expect(upstream.stats.reuseDetections).toBe(0);
  });
});
