import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth } from '../../src/index';
import { createTokenAuthWsClient } from '../../src/ws/index';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { idle, record, TICK, wsUrl } from '../helpers/overWs';

const cleanups = useCleanups();

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
    const client = createTokenAuthWsClient(auth, { url: front.url, webSocketImpl: WebSocket, retryWait: async () => void (await idle(10)) });
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
});
