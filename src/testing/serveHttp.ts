import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importNodeOnly } from './importNodeOnly';

/** What a handler answers: a response, or `'lost'` for a request whose answer never arrives (the socket dies). */
export type HandlerAnswer = Response | 'lost';

/** A Fetch-API handler served over node:http, and how to stop it. */
export interface HttpListener {
  readonly server: Server;
  /** The base URL, e.g. `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
}

/**
 * Serves `handle` on `host:port` over node:http (port 0: an ephemeral one).
 *
 * @remarks
 * node:http is imported here, when a test asks for a port, so the Fetch handler bundles for a browser.
 */
export async function serveHttp(
  handle: (request: Request) => Promise<HandlerAnswer>,
  port: number,
  host: string,
  beforeListen: (server: Server) => Promise<unknown>,
): Promise<HttpListener> {
  const { createServer } = await importNodeOnly<typeof import('node:http')>('node:http');
  const server = createServer((req, res) => {
    const gone = new AbortController();
    // The client hung up: a delayed or hung request stops waiting for nobody.
    res.once('close', () => gone.abort(new Error('The client closed the connection')));
    toRequest(req, gone.signal)
      .then(handle)
      .then((answer) => (answer === 'lost' ? void req.socket.destroy() : send(res, answer)))
      .catch(() => res.destroy());
  });
  await beforeListen(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    origin: `http://${urlHost}:${(server.address() as AddressInfo).port}`,
    async close() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeAllConnections();
      await closed;
    },
  };
}

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
    signal,
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(body);
}
