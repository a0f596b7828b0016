import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthServerOptions } from '../../demo/server/createAuthServer';
import { createServiceAuth } from '../../src/service';
import { clientFor, ping, PING, startDemoServer, useCleanups } from '../helpers/overHttp';

const PASSWORD = 'cashier-pass';

const cleanups = useCleanups();
afterEach(() => {
  vi.restoreAllMocks();
});

async function start(options: AuthServerOptions = {}) {
  const server = await startDemoServer(cleanups, options);
  return { server, uri: server.url };
}

describe('createServiceAuth', () => {
  it('logs in from its credentials and logs in again by itself after the session was revoked', async () => {
    const { server, uri } = await start();
    const errors: unknown[] = [];
    const auth = createServiceAuth({
      uri,
      credentials: () => ({ email: 'cashier@demo.test', password: PASSWORD }),
      onError: (error) => errors.push(error),
    });
    cleanups.push(() => auth.dispose());
    const client = clientFor(auth.link, uri);
    const { user } = await auth.start();
    expect(user.role).toBe('Cashier');
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });

    server.revokeAllSessions();
    server.expireAllAccessTokens();
    const results = await Promise.all(Array.from({ length: 5 }, (_, n) => ping(client, n)));
    expect(results.map((r) => r.data)).toEqual(Array.from({ length: 5 }, (_, n) => ({ ping: n })));
    expect(server.stats).toMatchObject({ loginCalls: 2, refreshCalls: 1 });
    expect(auth.getState().status).toBe('authenticated');
    expect(errors).toEqual([]);
  });

  it('logs in at the first operation when not started, and rejects bad credentials clearly', async () => {
    const { server, uri } = await start();
    const auth = createServiceAuth({ uri, credentials: () => ({ email: 'admin@demo.test', password: 'admin-pass' }) });
    cleanups.push(() => auth.dispose());
    const client = clientFor(auth.link, uri);
    await client.query({ query: PING, variables: { n: 1 } });
    expect(server.stats.loginCalls).toBe(1);

    const bad = createServiceAuth({ uri, credentials: () => ({ email: 'admin@demo.test', password: 'wrong' }) });
    cleanups.push(() => bad.dispose());
    await expect(bad.start()).rejects.toMatchObject({ name: 'AuthRejectedError', code: 'INVALID_CREDENTIALS' });
    // Refused credentials are not sent again with every operation.
    const badClient = clientFor(bad.link, uri);
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, n) => badClient.query({ query: PING, variables: { n } })),
    );
    expect(attempts.every((a) => a.status === 'rejected' && (a.reason as Error).name === 'AuthRejectedError')).toBe(
      true,
    );
    expect(server.stats.loginCalls).toBe(2);
  });

  it("logs in again even when the app's onSessionEnd throws", async () => {
    const { server, uri } = await start();
    const auth = createServiceAuth({
      uri,
      credentials: () => ({ email: 'admin@demo.test', password: 'admin-pass' }),
      onSessionEnd: () => {
        throw new Error('app bug');
      },
    });
    cleanups.push(() => auth.dispose());
    await auth.start();
    server.revokeAllSessions();
    await auth.refresh().catch(() => {});
    await vi.waitFor(() => expect(server.stats.loginCalls).toBe(2));
    await vi.waitFor(() => expect(auth.getState().status).toBe('authenticated'));
  });

  it('never writes its credentials or tokens to the console or into errors', async () => {
    const { server, uri } = await start();
    const printed: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation(
        (...args: unknown[]) => void printed.push(args.map(String).join(' ')),
      );
    }
    const errors: unknown[] = [];
    const auth = createServiceAuth({
      uri,
      credentials: () => ({ email: 'cashier@demo.test', password: PASSWORD }),
      onError: (e) => errors.push(e),
    });
    cleanups.push(() => auth.dispose());
    await auth.start();
    const token = (await auth.getAccessToken())!;
    server.revokeAllSessions();
    await auth.refresh().catch((e: unknown) => errors.push(e));
    await vi.waitFor(() => expect(auth.getState().status).toBe('authenticated'));
    server.faults.failNext.push({ field: 'refreshToken', status: 500, body: 'down' });
    await auth.refresh().catch((e: unknown) => errors.push(e));
    expect(errors.length).toBeGreaterThan(0);
    const seen = JSON.stringify([
      printed,
      errors.map((e) => [String(e), (e as Error).stack, JSON.stringify(e), String((e as Error).cause)]),
    ]);
    expect(seen).not.toContain(PASSWORD);
    expect(seen).not.toContain(token);
    expect(seen).not.toContain(token.split('.')[1]);
  });

  it('runs each worker process with its own session: two processes, no reuse, both keep working across refreshes', async () => {
    const { server, uri } = await start({ accessTokenTtl: 2 });
    const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', worker], {
        env: { ...process.env, API_URL: uri, API_EMAIL: 'cashier@demo.test', API_PASSWORD: PASSWORD, RUN_MS: '3000' },
        timeout: 30_000,
      });
    const outputs = await Promise.all([run(), run()]);
    const reports = outputs.map(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1)!));
    for (const report of reports) expect(report).toMatchObject({ failed: 0, refreshed: true, status: 'authenticated' });
    expect(server.stats.loginCalls).toBe(2);
    expect(server.stats.reuseDetections).toBe(0);
    expect(server.stats.refreshSuccesses).toBeGreaterThanOrEqual(2);
    expect(outputs.map((o) => o.stdout + o.stderr).join('')).not.toContain(PASSWORD);
  }, 40_000);
});
