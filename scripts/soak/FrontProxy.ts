import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { HandlerPool } from './HandlerPool.ts';

/** What one hop answered. */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * The Next.js app's origin, as a load balancer in front of it: `/auth/*` goes round robin to the token handler's
 * instances (to the next one when an instance refuses the connection, as a balancer's health check would), and
 * every other request to `next start`. Before a page renders, one instance renews the session of its cookie
 * (`getServerSession`, with the shared Redis cache), and the page is rendered with the renewed cookie. Next's own
 * handler (its proxy) may still renew one a moment later, when the token crossed its half-life in between: it
 * shares the Redis cache too (`REDIS_URL`), as every instance that can rotate must. Without that, a favicon's
 * request to Next spent a token an instance had just spent (the soak, seed 3, at 475 s).
 */
export class FrontProxy {
  port = 0;
  private server: Server | undefined;
  private turn = 0;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly handlers: HandlerPool,
    private readonly nextPort: () => number,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = createServer((req, res) => void this.serve(req, res).catch(() => res.destroy()));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? '/';
    let answer: Answer;
    if (path.startsWith('/auth/')) {
      answer = await this.toHandlers(req.method!, path, req.headers, body);
    } else if (req.method === 'GET' && isPage(path)) {
      const setCookie = await this.renew(req.headers.cookie ?? '');
      const { cookie: _sent, ...headers } = req.headers;
      const cookie = withCookies(req.headers.cookie ?? '', setCookie);
      if (cookie) headers.cookie = cookie;
      answer = await forward(this.nextPort(), req.method, path, headers, body);
      const own = answer.headers['set-cookie'] ?? [];
      answer.headers['set-cookie'] = [...setCookie, ...own];
    } else {
      answer = await forward(this.nextPort(), req.method!, path, req.headers, body);
    }
    // The body is whole here: sent with its length, not in the chunks it came in.
    const {
      'transfer-encoding': _chunked,
      connection: _connection,
      'keep-alive': _keepAlive,
      ...headers
    } = answer.headers;
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  }

  /** Round robin over the instances; a refused connection goes on to the next one. */
  private async toHandlers(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    const instances = this.handlers.instances;
    for (let tries = 0; tries < instances.length; tries++) {
      const instance = instances[this.turn++ % instances.length]!;
      try {
        return await forward(instance.port, method, path, headers, body);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
      }
    }
    return {
      status: 502,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('No token handler instance answers'),
    };
  }

  /** The Set-Cookie values of a renewal of the session in `cookie` by one instance (none when it has nothing to say). */
  private async renew(cookie: string): Promise<string[]> {
    if (!cookie.includes('token-pair')) return [];
    const answer = await this.toHandlers('POST', '/__renew', { 'content-type': 'text/plain' }, Buffer.from(cookie));
    if (answer.status !== 200) return [];
    return (JSON.parse(String(answer.body)) as { setCookie: string[] }).setCookie;
  }
}

const isPage = (path: string) => !/^\/(_next\/|graphql|favicon|icon)/.test(path);

/** `cookie` (a Cookie header) with the values `setCookie` sets, and without those it clears. */
export function withCookies(cookie: string, setCookie: readonly string[]): string {
  const jar = new Map(
    cookie
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  for (const line of setCookie) {
    const [pair, ...attributes] = line.split(/;\s*/);
    const name = pair!.slice(0, pair!.indexOf('='));
    const value = pair!.slice(pair!.indexOf('=') + 1);
    const cleared =
      value === '' ||
      attributes.some((attribute) => /^max-age=0$/i.test(attribute) || /^expires=thu, 01 jan 1970/i.test(attribute));
    if (cleared) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

function forward(
  port: number,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(body.length) } },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(parts) }),
        );
        answer.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
