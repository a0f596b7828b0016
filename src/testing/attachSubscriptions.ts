import type { Server } from 'node:http';
import { execute, parse, subscribe, validate, type GraphQLError } from 'graphql';
import type { WebSocket } from 'ws';
import type { Clock } from '../index';
import { authError } from './authError';
import { importNodeOnly } from './importNodeOnly';
import type { AuthService } from './createAuthService';
import { schema } from './schema';
import { STATS_HISTORY_LIMIT } from './stats';
import { tickEvery } from './tickEvery';

/** What the server does when a connection's access token expires: at its `exp`, or forced by `expireAllAccessTokens()`. */
export type WsExpiry = 4401 | 4403 | 'TOKEN_EXPIRED' | 'keep';

/** The graphql-ws endpoint's test controls and counters (`server.ws`). */
export interface SubscriptionServer {
  /**
   * `4401` (default): close the socket with 4401 Unauthorized. `4403`: close it with 4403 Forbidden.
   * `'TOKEN_EXPIRED'`: keep the socket, end its running streams with a `TOKEN_EXPIRED` error, and answer new
   * subscriptions on it with `TOKEN_EXPIRED`. `'keep'`: keep the socket and its streams; only new subscriptions
   * on it are answered `TOKEN_EXPIRED` (a server that checks the token per subscription).
   */
  onExpiry: WsExpiry;
  /** When set, every connection is closed with this code at `connection_init`, whatever it carries. */
  refuse?: number;
  /** The `connection_init` payload of every connection, in order; `undefined` when it had none (the last 10 000). */
  readonly connectionParams: Array<Record<string, unknown> | undefined>;
  /** Ticker events sent. */
  readonly events: number;
  /** Sockets open now. */
  readonly open: number;
  /** Closes every open socket with `code`. */
  closeAll(code: number, reason?: string): void;
  /** Every access token issued so far has expired: each authenticated connection is treated as `onExpiry` says. */
  expireAll(): void;
  /** Every session is revoked: each authenticated connection is closed with 4403. */
  revokeAll(): void;
}

/** The endpoint's options. */
export interface SubscriptionServerOptions {
  service: AuthService;
  /** ms between two ticker events (real time). */
  tickerInterval: number;
  /** The server clock, the one tokens are signed with: a connection is treated as expired at its token's `exp`. */
  clock: Clock;
}

/** The controls of {@link SubscriptionServer}, and what the HTTP server calls to serve and stop the endpoint. */
export interface SubscriptionEndpoint {
  readonly controls: SubscriptionServer;
  /**
   * Serves graphql-ws at `/graphql` on `server`. Resolves `false`, serving nothing, when the optional peers `ws`
   * and `graphql-ws` are not installed.
   */
  attach(server: Server): Promise<boolean>;
  /** Closes every socket and the endpoint; a second call joins the first. */
  close(): Promise<void>;
}

interface Connection {
  readonly socket: WebSocket;
  readonly authorization: string;
  /** Aborted with a `TOKEN_EXPIRED` error when the token expires and `onExpiry` keeps the socket open. */
  readonly expired: AbortController;
  timer?: unknown;
}

/**
 * The graphql-ws endpoint of a test server, authenticated at `connection_init`:
 * - no `authorization` in the payload: accepted signed out (the ticker answers `UNAUTHENTICATED`);
 * - an expired token: closed with 4401 Unauthorized, which the client may cure by a refresh;
 * - an invalid token or a revoked session: closed with 4403 Forbidden;
 * - a valid one: accepted; at the token's `exp` the connection is treated as `onExpiry` says, and a revoked
 *   session's sockets are closed with 4403.
 *
 * @remarks
 * Node only: `ws` and `graphql-ws/use/ws` are imported when `listen()` attaches it, so the Fetch handler of the
 * server bundles without them.
 */
export function createSubscriptionEndpoint(options: SubscriptionServerOptions): SubscriptionEndpoint {
  const { service, tickerInterval, clock } = options;
  const connections = new Map<WebSocket, Connection>();
  const sockets = new Set<WebSocket>();
  const connectionParams: SubscriptionServer['connectionParams'] = [];
  let events = 0;
  let dispose: (() => Promise<void>) | undefined;
  let closed: Promise<void> | undefined;

  const ticker = async (_args: unknown, { authorization, expired }: Connection) => {
    const { user } = await service.authenticate(authorization);
    const event = (n: number) => ({ ticker: { n, userId: user.id, email: user.email } });
    return tickEvery(tickerInterval, expired.signal, event);
  };

  const controls: SubscriptionServer = {
    onExpiry: 4401,
    connectionParams,
    get events() {
      return events;
    },
    get open() {
      return sockets.size;
    },
    closeAll(code, reason = 'Closed by the test') {
      for (const socket of sockets) socket.close(code, reason);
    },
    expireAll: () => connections.forEach(expire),
    revokeAll: () => connections.forEach(({ socket }) => socket.close(4403, 'Session revoked')),
  };

  function expire(connection: Connection): void {
    clock.clearTimeout(connection.timer);
    const { onExpiry } = controls;
    if (onExpiry === 'keep') return;
    if (onExpiry === 'TOKEN_EXPIRED') connection.expired.abort(authError('TOKEN_EXPIRED', 'Access token expired'));
    else connection.socket.close(onExpiry, 'Access token expired');
  }

  async function attach(server: Server): Promise<boolean> {
    let modules: [typeof import('ws'), typeof import('graphql-ws/use/ws')];
    try {
      modules = await Promise.all([
        importNodeOnly<typeof import('ws')>('ws'),
        importNodeOnly<typeof import('graphql-ws/use/ws')>('graphql-ws/use/ws'),
      ]);
    } catch {
      return false;
    }
    const [{ WebSocketServer }, { useServer }] = modules;
    // Upgrades are handed over by hand, not with `{ server }`: that would also forward the HTTP server's errors, and
    // graphql-ws logs an "Internal error" for a port in use, which `listen()` reports already.
    const wss = new WebSocketServer({ noServer: true, path: '/graphql' });
    server.on('upgrade', (request, socket, head) =>
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request)),
    );
    wss.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    const endpoint = useServer<Record<string, unknown> | undefined, { socket: WebSocket }>(
      {
        schema,
        // graphql-ws's own import of graphql may load another copy (CJS next to ESM, as under vitest), which
        // refuses this schema: it executes with the copy the schema was built with.
        parse,
        validate,
        execute,
        subscribe,
        roots: { subscription: { ticker } },
        context: (ctx) => connections.get(ctx.extra.socket) ?? anonymous(ctx.extra.socket),
        async onConnect(ctx) {
          const { socket } = ctx.extra;
          const params = ctx.connectionParams;
          connectionParams.push(params);
          if (connectionParams.length > STATS_HISTORY_LIMIT) connectionParams.shift();
          if (controls.refuse) {
            socket.close(controls.refuse, 'Refused by the test');
            return false;
          }
          const sent = params?.['authorization'];
          if (sent === undefined) return true;
          // A header that is no string is refused as one that does not parse.
          const authorization = typeof sent === 'string' ? sent : JSON.stringify(sent);
          try {
            const { claims } = await service.authenticate(authorization);
            const connection: Connection = {
              socket,
              authorization,
              expired: new AbortController(),
            };
            if (claims.exp !== undefined)
              connection.timer = clock.setTimeout(() => expire(connection), claims.exp * 1000 - clock.now());
            connections.set(socket, connection);
            return true;
          } catch (error) {
            const { extensions, message } = error as GraphQLError;
            socket.close(extensions?.['code'] === 'TOKEN_EXPIRED' ? 4401 : 4403, message);
            return false;
          }
        },
        onNext: () => void (events += 1),
        onClose(ctx) {
          const connection = connections.get(ctx.extra.socket);
          clock.clearTimeout(connection?.timer);
          connections.delete(ctx.extra.socket);
        },
      },
      wss,
    );
    dispose = () => Promise.resolve(endpoint.dispose());
    return true;
  }

  return {
    controls,
    attach,
    close() {
      for (const socket of sockets) socket.terminate();
      for (const connection of connections.values()) clock.clearTimeout(connection.timer);
      return (closed ??= dispose?.() ?? Promise.resolve());
    },
  };
}

function anonymous(socket: WebSocket): Connection {
  return { socket, authorization: '', expired: new AbortController() };
}
