import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth, systemClock, type Clock } from '../../src/index';
import { createTokenAuthWsClient } from '../../src/ws/index';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { idle, record, TICK, wsUrl } from '../helpers/overWs';

const cleanups = useCleanups();
afterEach(() => vi.restoreAllMocks());

/**
 * A front for the server's WebSocket endpoint that can go down: it then cuts every socket and answers each new
 * connection with 503, as a restarting API or its load balancer does.
 */
async function startFront(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const front = { down: false, refused: 0, url: '' };
  const server = createServer((_, res) => res.writeHead(404).end());
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (front.down) {
      front.refused += 1;
      return void socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    }
    const upstream = connect(Number(port), hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    for (const each of [socket, upstream]) {
      sockets.add(each);
      each.on('close', () => sockets.delete(each));
      each.on('error', () => {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  front.url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
  return Object.assign(front, {
    goDown() {
      front.down = true;
      for (const socket of sockets) socket.destroy();
    },
  });
}

describe('createTokenAuthWsClient: a server that is down for a while', () => {
  it('keeps trying through refused connections, past graphql-ws’s 5 attempts, and resumes the subscription once it is back', async () => {
    const server = await startDemoServer(cleanups, { tickerInterval: TICK });
    const front = await startFront(wsUrl(server));
    const auth = createTokenAuth({ uri: server.url, refreshOnResume: false });
    cleanups.push(() => auth.dispose());
    // The package's retryAttempts and shouldRetry; only the wait between attempts is cut short, for real time.
    const client = createTokenAuthWsClient(auth, {
      url: front.url,
      webSocketImpl: WebSocket,
      retryWait: async () => void (await idle(10)),
    });
    cleanups.push(() => client.dispose());
    await auth.login('admin@demo.test', 'admin-pass');
    const ticker = record(client);
    await ticker.more(2);

    front.goDown();
    await vi.waitFor(() => expect(front.refused).toBeGreaterThanOrEqual(8), { timeout: 5_000 });
    front.down = false;
    await ticker.more(3);

    expect(ticker.errors).toEqual([]);
    expect(ticker.ticks.at(-1)).toMatchObject({ userId: 'u_admin' });
  });

  /**
   * A session, a ticker behind a front that can go down, and the socket's retry waits: each is recorded, and held
   * until something ends it early (`hold`), or let through at once (`!hold`).
   */
  async function tickingBehindFront({ hold }: { hold: boolean }) {
    const server = await startDemoServer(cleanups, { tickerInterval: TICK });
    const front = await startFront(wsUrl(server));
    const auth = createTokenAuth({ uri: server.url, refreshOnResume: false });
    cleanups.push(() => auth.dispose());
    const waits: number[] = [];
    const clock: Clock = {
      ...systemClock,
      setTimeout(callback, delay) {
        waits.push(delay);
        return hold ? undefined : systemClock.setTimeout(callback, 0);
      },
    };
    const client = createTokenAuthWsClient(auth, { url: front.url, webSocketImpl: WebSocket, clock });
    cleanups.push(() => client.dispose());
    await auth.login('admin@demo.test', 'admin-pass');
    const ticker = record(client);
    await ticker.more(2);
    return { front, auth, ticker, waits };
  }

  /** Takes the front down until the client waits for its next attempt, then brings it back: the ticker is silent. */
  async function downUntilWaiting({ front, ticker, waits }: Awaited<ReturnType<typeof tickingBehindFront>>) {
    front.goDown();
    await vi.waitFor(() => expect(waits.length).toBeGreaterThan(0), { timeout: 5_000 });
    front.down = false;
    const silent = ticker.ticks.length;
    await idle();
    expect(ticker.ticks).toHaveLength(silent);
  }

  it('waits at most 8 s between attempts, so that the screen is live again soon after the server is', async () => {
    // The top of each random wait: without the cap, attempt 5 would wait up to 16 s and attempt 6 up to 30 s.
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const behind = await tickingBehindFront({ hold: false });
    behind.front.goDown();
    await vi.waitFor(() => expect(behind.waits.length).toBeGreaterThanOrEqual(7), { timeout: 5_000 });
    behind.front.down = false;
    await behind.ticker.more(3);

    expect(behind.waits.slice(0, 7).map(Math.round)).toEqual([999, 1998, 3996, 7992, 7992, 7992, 7992]);
    expect(behind.ticker.errors).toEqual([]);
  });

  it('ends the wait at once when the session renews its pair: its server answered, the socket’s may too', async () => {
    const behind = await tickingBehindFront({ hold: true });
    await downUntilWaiting(behind);

    await behind.auth.refresh();
    await behind.ticker.more(3);
    expect(behind.ticker.errors).toEqual([]);
    expect(behind.ticker.ticks.at(-1)).toMatchObject({ userId: 'u_admin' });
  });
});
