import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AppName, Journal } from './Journal.ts';

/** What the API's front answers with now. */
export type ApiMode = 'normal' | '503' | 'slow';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
};
const SLOW_MS = 2000;

/**
 * The API as its clients reach it: a proxy in front of the spec test server that can answer 503, answer 2 s late,
 * or go away and come back on the same port (a restart, as a server does one: it stops taking connections, answers
 * the requests it is serving, cuts the rest, and refuses new ones meanwhile), while the server behind it keeps its
 * sessions. It reads the pairs the API issues to tell which session each login and
 * refresh belongs to.
 */
export class ApiFaultProxy {
  port = 0;
  private current: ApiMode = 'normal';
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** The WebSockets (graphql-ws) piped to the API now: the browser's side. */
  private readonly upgraded = new Set<Socket>();
  /** HTTP requests being served now. */
  private serving = 0;

  /** What the front answers with now. Entering 503 cuts every WebSocket: the API is unavailable to them too. */
  get mode(): ApiMode {
    return this.current;
  }

  set mode(mode: ApiMode) {
    this.current = mode;
    if (mode === '503') for (const socket of this.upgraded) socket.destroy();
  }

  /**
   * Cuts every WebSocket piped now, as a server does to peers that stopped answering its pings (a laptop asleep):
   * they find out, and reconnect, when they are back.
   */
  cutWebSockets(): number {
    const count = this.upgraded.size;
    for (const socket of this.upgraded) socket.destroy();
    return count;
  }

  constructor(
    private readonly upstream: URL,
    /** The journal of the run (a new one once the run's clock starts). */
    private readonly journalOf: () => Journal,
    /** The origin of the SPA's pages: a login from there is the SPA's. */
    private readonly spaOrigin: () => string,
    /** The worker's user: a login as it is the worker's. */
    private readonly workerEmail: string,
  ) {}

  /** The GraphQL URL of the API's front. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/graphql`;
  }

  /** Listens on `port` (by default the last one: 0 the first time, a free one); rejects when it is taken. */
  async listen(port = this.port): Promise<void> {
    const server = createServer((req, res) => void this.serve(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.upgrade(req, socket, head));
    server.keepAliveTimeout = 5000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops listening and cuts every connection, as a process that exits does. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /**
   * A restart: down for `ms`, then up on the same port. Like a server on SIGTERM, it first answers the requests it
   * is serving (at most 5 s): cutting a refresh the API has executed would lose a rotated pair, which under a
   * single-use refresh token no client can get back without a resubmission (reuse) or a sign-out. A crash that
   * does cut it is the model's and test/faults' lost answer, not this fault.
   */
  async restart(ms: number): Promise<void> {
    const server = this.server;
    server?.close();
    server?.closeIdleConnections();
    for (let waited = 0; this.serving > 0 && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await this.close();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.listen();
  }

  /**
   * A WebSocket upgrade (graphql-ws at /graphql): refused with 503 during a 503, 2 s late while slow, otherwise
   * the request and both directions piped to the API as they are. A restart cuts it with every connection.
   */
  private async upgrade(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    if (this.mode === '503') {
      socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    if (socket.destroyed) return;
    const upstream = connect(Number(this.upstream.port), this.upstream.hostname);
    this.upgraded.add(socket);
    const cut = () => {
      this.upgraded.delete(socket);
      socket.destroy();
      upstream.destroy();
    };
    socket.once('close', cut);
    upstream.once('close', cut);
    upstream.on('error', cut);
    upstream.once('connect', () => {
      const headers = Object.entries({ ...req.headers, host: this.upstream.host }).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((each) => `${name}: ${each}\r\n`),
      );
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('')}\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.serving += 1;
    res.once('close', () => (this.serving -= 1));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (this.mode === '503' && req.method === 'POST') {
      res.writeHead(503, { 'content-type': 'application/json', ...CORS });
      res.end(
        JSON.stringify({
          errors: [{ message: 'Service Unavailable (soak fault)', extensions: { code: 'SERVICE_UNAVAILABLE' } }],
        }),
      );
      return;
    }
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    const headers = { ...req.headers, host: this.upstream.host };
    const upstream = httpRequest(this.upstream, { method: req.method, path: req.url, headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (part: Buffer) => parts.push(part));
      answer.on('end', () => {
        const text = Buffer.concat(parts);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(text);
        this.readSessions(req, body, text);
      });
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  /** Notes the session (`sid`) of each pair a login or refresh issued, and each logout; counts the mutations run. */
  private readSessions(req: IncomingMessage, body: Buffer, answer: Buffer): void {
    const journal = this.journalOf();
    if (req.method !== 'POST') return;
    let sent: { query?: string; variables?: Record<string, unknown> } | undefined;
    let data: Record<string, { accessToken?: string; success?: boolean } | null> | undefined;
    let errors: Array<{ message?: string; extensions?: { code?: string } }> | undefined;
    try {
      sent = JSON.parse(String(body));
      ({ data, errors } = JSON.parse(String(answer)));
    } catch {
      return;
    }
    const query = sent?.query ?? '';
    // A mutation the API ran (it answered with the club): counted by its name, unique to one mutation of the workload.
    const renamed = (data?.['renameClub'] as { name?: string } | null | undefined)?.name;
    if (/\brenameClub\b/.test(query) && renamed !== undefined)
      journal.runs.set(renamed, (journal.runs.get(renamed) ?? 0) + 1);
    const kind = /\bloginWithEmailPassword\b/.test(query)
      ? 'login'
      : /\brefreshToken\s*\(/.test(query)
        ? 'refresh'
        : undefined;
    // A refused refresh, in the API's words, with the token's tail: the events around a lost session show it.
    if (kind === 'refresh' && errors?.length) {
      const token = String(sent?.variables?.['token'] ?? /token:\s*"([^"]+)"/.exec(query)?.[1] ?? '');
      journal.note(
        'refused',
        `refresh of …${token.slice(-6)} refused: ${errors[0]?.message} (${errors[0]?.extensions?.code ?? 'no code'}), from ${req.headers.origin ?? 'a server'}`,
      );
    }
    if (!kind || !data) return;
    const pair = data['loginWithEmailPassword'] ?? data['refreshToken'];
    if (!pair?.accessToken) return;
    if (kind === 'refresh') {
      const token = String(sent?.variables?.['token'] ?? '');
      const issued = String((pair as { refreshToken?: string }).refreshToken ?? '');
      journal.note('rotated', `…${token.slice(-6)} → …${issued.slice(-6)}, from ${req.headers.origin ?? 'a server'}`);
    }
    const claims = JSON.parse(Buffer.from(pair.accessToken.split('.')[1]!, 'base64url').toString()) as {
      sid: string;
      email: string;
    };
    const app: AppName =
      claims.email === this.workerEmail ? 'worker' : req.headers.origin === this.spaOrigin() ? 'vite-spa' : 'nextjs';
    // A refresh keeps the app its session's login named.
    const known = journal.sessions.find((each) => each.sid === claims.sid);
    journal.sessions.push({ t: journal.now(), kind, sid: claims.sid, user: claims.email, app: known?.app ?? app });
  }
}
