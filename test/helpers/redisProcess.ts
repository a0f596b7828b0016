import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

// No vitest here: the benchmarks start redis-server too.
const REDIS_SERVER = '/usr/bin/redis-server';

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `redis-server` on `port` (no persistence, loopback only) and resolves once it answers PING. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: these tests need a real Redis. Install it with \`apt-get install -y redis-server\`.`,
    );
  }
  const server = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    { stdio: 'ignore' },
  );
  const probe = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  const end = Date.now() + 5000;
  for (;;) {
    try {
      if (probe.status !== 'ready') await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch (error) {
      if (Date.now() > end)
        throw new Error(`redis-server did not answer PING on port ${port}: ${(error as Error).message}`, {
          cause: error,
        });
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  probe.disconnect();
  return server;
}

/** Stops a `redis-server` this test started, by its PID. */
export async function stopRedisServer(
  server: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill(signal);
  await exited;
}
