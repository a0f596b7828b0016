import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, shareTokenStore } from '../../src';
import { clientFor, ping, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();

describe('two createTokenAuth instances sharing one store, over HTTP', () => {
  it('40 concurrent operations on an expired token give one refresh, no reuse, 40 successes', async () => {
    const server = await startDemoServer(cleanups);
    const uri = server.url;
    const store = shareTokenStore(createMemoryTokenStore());
    const instances = [0, 1].map(() => {
      const auth = createTokenAuth({ uri, store });
      cleanups.push(() => auth.dispose());
      const client = clientFor(auth.link, uri);
      return { auth, client };
    });
    await instances[0]!.auth.login('admin@demo.test', 'admin-pass');
    expect(instances[1]!.auth.getState().status).toBe('authenticated');
    server.expireAllAccessTokens();
    server.resetStats();
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, n) => ping(instances[n % 2]!.client, n)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    expect(await instances[1]!.auth.getAccessToken()).toBe(await instances[0]!.auth.getAccessToken());
  });
});
