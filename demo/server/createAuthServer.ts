import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { graphql } from 'graphql';
import { attachSubscriptions, type SubscriptionServer } from './attachSubscriptions.ts';
import { parseBatch } from './batch.ts';
import { onlyAuthErrors } from './authError.ts';
import { createAuthService, type RequestContext } from './createAuthService.ts';
import { createTokenSigner } from './createTokenSigner.ts';
import { noFaults, takeFailure } from './faults.ts';
import { type GraphqlRequest, parseGraphqlRequest, topLevelFields } from './graphqlRequest.ts';
import { CORS_HEADERS, readBody, sendError, sendJson } from './http.ts';
import { schema } from './schema.ts';
import { clearStats, emptyStats, pushBounded, statsSummary } from './stats.ts';
import { USERS } from './users.ts';

/** Options of {@link createAuthServer}. */
export interface AuthServerOptions {
  /** Access token lifetime in seconds. @defaultValue `Number(process.env.ACCESS_TOKEN_TTL) || 900` */
  accessTokenTtl?: number;
  /** Refresh token lifetime in seconds. @defaultValue `Number(process.env.REFRESH_TOKEN_TTL) || 2_592_000` */
  refreshTokenTtl?: number;
  /** HS256 secret. @defaultValue a random 32-byte secret per server */
  secret?: string;
  /** Server clock in ms, used for `iat`/`exp` and for verification, so tests can skew it. @defaultValue `Date.now` */
  now?: () => number;
  /**
   * HTTP status of responses whose only errors are auth errors (TOKEN_EXPIRED, UNAUTHENTICATED, INVALID_*).
   * @defaultValue 200, as GraphQL over HTTP with `application/json`
   */
  authErrorStatus?: number;
  /** ms between two events of the `ticker` subscription (graphql-ws at the same `/graphql`). @defaultValue `500` */
  tickerInterval?: number;
}

/** What a server has seen since it started or since `resetStats()`. */
export interface AuthServerStats {
  loginCalls: number;
  refreshCalls: number;
  refreshSuccesses: number;
  reuseDetections: number;
  logoutCalls: number;
  /** Count of TOKEN_EXPIRED errors sent. */
  tokenExpired: number;
  /** Every POST /graphql. */
  requests: number;
  /** The raw Authorization header of every POST /graphql, '' when absent (the last 10 000). */
  authorizationHeaders: string[];
  /** Every token argument received by refreshToken, in order (the last 10 000). */
  refreshTokensSubmitted: string[];
  /** Every refresh token issued (by login, refresh or `issueTokens`), in order (the last 10 000). */
  refreshTokensIssued: string[];
}

/** Faults a test switches on by mutating `server.faults`. */
export interface AuthServerFaults {
  /** Delay (ms) before a top-level field ('refreshToken', 'me', 'clubs', 'ping', 'loginWithEmailPassword', 'logout') is resolved. */
  delayMs: Partial<Record<string, number>>;
  /** The next N refreshToken calls are executed (a valid token is rotated), then the socket is destroyed unanswered. */
  dropRefreshResponses: number;
  /** Queue of raw responses: the next request selecting `field` (any request without `field`) gets one, unexecuted. */
  failNext: Array<{ field?: string; status: number; body: string; contentType?: string }>;
  /** When true, refreshToken requests never answer (until `close()` destroys their sockets). */
  hangRefresh: boolean;
}

/** A running (or ready to run) auth server with its test controls. */
export interface AuthServer {
  /** Starts listening and resolves the GraphQL URL, e.g. "http://127.0.0.1:PORT/graphql". Defaults: port 0, host '127.0.0.1'. */
  listen(port?: number, host?: string): Promise<string>;
  /** The GraphQL URL once listening, '' before. */
  readonly url: string;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
  readonly stats: AuthServerStats;
  readonly faults: AuthServerFaults;
  resetStats(): void;
  /**
   * Every access token issued so far is answered with TOKEN_EXPIRED from now on; later ones are fine. Sockets
   * authenticated with one are treated as `ws.onExpiry` says.
   */
  expireAllAccessTokens(): void;
  /** Revokes every session: all its access and refresh tokens are refused, and its sockets closed with 4403. */
  revokeAllSessions(): void;
  /** The graphql-ws endpoint at the same `/graphql` (WebSocket upgrade): its controls and counters. */
  readonly ws: SubscriptionServer;
  /** Opens a session for a seeded user as login would (without counting a login), to pre-fill a client's store. */
  issueTokens(
    email: string,
    opts?: { accessTokenTtl?: number; refreshTokenTtl?: number },
  ): Promise<{ accessToken: string; refreshToken: string }>;
  readonly users: ReadonlyArray<{ id: string; email: string; password: string; role: string }>;
}

interface Route {
  method: 'GET' | 'POST';
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

/**
 * Creates an in-memory GraphQL auth server implementing the token service spec, over node:http.
 *
 * @example
 * const server = createAuthServer({ authErrorStatus: 401 });
 * const url = await server.listen();
 * // ... fetch(url, ...)
 * await server.close();
 */
export function createAuthServer(options: AuthServerOptions = {}): AuthServer {
  const stats = emptyStats();
  const faults = noFaults();
  const closing = new AbortController();
  // Every delayed or hung request listens on this signal; dozens at once are expected, not a leak.
  try {
    setMaxListeners(Infinity, closing.signal);
  } catch {
    // Under a DOM test environment AbortController is the DOM's: Node refuses it, and it has no limit to lift.
  }
  const authErrorStatus = options.authErrorStatus ?? 200;
  const secret = options.secret === undefined ? randomBytes(32) : new TextEncoder().encode(options.secret);
  const now = options.now ?? Date.now;
  const service = createAuthService({
    signer: createTokenSigner(secret, now),
    accessTokenTtl: options.accessTokenTtl ?? (Number(process.env['ACCESS_TOKEN_TTL']) || 900),
    refreshTokenTtl: options.refreshTokenTtl ?? (Number(process.env['REFRESH_TOKEN_TTL']) || 2_592_000),
    stats,
    faults,
    signal: closing.signal,
  });
  let url = '';

  async function handleGraphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    stats.requests += 1;
    pushBounded(stats.authorizationHeaders, authorization);

    const body = await readBody(req);
    // A batch (Apollo's BatchHttpLink) is answered by an array of results, in the status a single request whose
    // only errors are auth errors gets when every result is such.
    const batch = parseBatch(body);
    const request = batch ?? parseGraphqlRequest(body);
    if ('error' in request) return sendError(res, 400, 'BAD_REQUEST', request.error);
    const requests = Array.isArray(request) ? request : [request];

    const failure = takeFailure(faults, requests.flatMap(topLevelFields));
    if (failure !== undefined) {
      res.writeHead(failure.status, { 'content-type': failure.contentType ?? 'application/json' }).end(failure.body);
      return;
    }

    const contextValue: RequestContext = { authorization, dropResponse: false };
    const results = await Promise.all(requests.map((one) => execute(one, contextValue)));
    if (closing.signal.aborted) return;
    if (contextValue.dropResponse) {
      req.socket.destroy();
      return;
    }
    for (const result of results) {
      // Counted from the response, as graphql-js keeps only the first error when sibling fields fail together.
      stats.tokenExpired += result.errors?.filter((error) => error.extensions['code'] === 'TOKEN_EXPIRED').length ?? 0;
    }
    const status = results.every((result) => onlyAuthErrors(result.errors)) ? authErrorStatus : 200;
    sendJson(res, status, batch ? results : results[0]);
  }

  function execute(request: GraphqlRequest, contextValue: RequestContext) {
    return graphql({
      schema,
      source: request.query,
      rootValue: service.rootValue,
      contextValue,
      variableValues: request.variables,
      operationName: request.operationName,
    });
  }

  function control(action: () => void): Route {
    return {
      method: 'POST',
      handle(_req, res) {
        action();
        sendJson(res, 200, { ok: true });
      },
    };
  }

  const routes = new Map<string, Route>([
    ['/graphql', { method: 'POST', handle: handleGraphql }],
    ['/control/expire-access-tokens', control(expireAllAccessTokens)],
    ['/control/revoke-sessions', control(revokeAllSessions)],
    ['/control/reset-stats', control(() => clearStats(stats))],
    ['/control/stats', { method: 'GET', handle: (_req, res) => sendJson(res, 200, statsSummary(stats)) }],
  ]);

  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.get(path);
    if (route === undefined) return sendError(res, 404, 'NOT_FOUND', `No route for ${path}`);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== route.method) {
      res.setHeader('allow', `${route.method}, OPTIONS`);
      return sendError(res, 405, 'METHOD_NOT_ALLOWED', `${path} accepts ${route.method}`);
    }
    Promise.resolve(route.handle(req, res)).catch((error: unknown) => {
      if (closing.signal.aborted) return;
      if (res.headersSent) res.destroy();
      else sendError(res, 500, 'INTERNAL_SERVER_ERROR', String(error));
    });
  });

  const ws = attachSubscriptions(server, { service, tickerInterval: options.tickerInterval ?? 500, now });

  function expireAllAccessTokens(): void {
    service.expireAllAccessTokens();
    ws.expireAll();
  }

  function revokeAllSessions(): void {
    service.revokeAllSessions();
    ws.revokeAll();
  }

  return {
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const urlHost = host.includes(':') ? `[${host}]` : host;
          url = `http://${urlHost}:${(server.address() as AddressInfo).port}/graphql`;
          resolve(url);
        });
      });
    },
    get url() {
      return url;
    },
    async close() {
      closing.abort();
      await ws.close();
      if (!server.listening) return;
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeAllConnections();
      await closed;
    },
    stats,
    faults,
    resetStats: () => clearStats(stats),
    expireAllAccessTokens,
    revokeAllSessions,
    ws,
    issueTokens: service.issueTokens,
    users: USERS,
  };
}
