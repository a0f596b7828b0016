import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import { errors, jwtVerify, SignJWT } from 'jose';
import { listenLocally } from './overHttp';

// What the REST servers of restServers.ts share: their users, their tokens (HS256 access tokens signed with jose on
// the test's clock, opaque refresh tokens kept in a table, as most tutorials keep them), a GraphQL endpoint behind
// the access token, and node:http written the way the tutorials write it.

/** A user of the REST servers. Access tokens carry `userId` and `roles` (or `isAdmin`), not `sub` and `role`. */
export interface RestUser {
  readonly id: number;
  readonly email: string;
  readonly password: string;
  readonly roles: readonly string[];
}

export const REST_USERS: readonly RestUser[] = [
  { id: 7, email: 'ada@example.test', password: 'lovelace', roles: ['admin', 'editor'] },
  { id: 8, email: 'bob@example.test', password: 'builder', roles: ['viewer'] },
];

/** What a server counted. */
export interface RestStats {
  logins: number;
  /** Refresh requests received, whatever their outcome. */
  refreshes: number;
  /** Refreshes answered with a new access token. */
  renewals: number;
  refusals: number;
  /** Refreshes with a spent refresh token: each revoked its session. */
  reuses: number;
  logouts: number;
  /** GraphQL operations answered with data. */
  operations: number;
  /** GraphQL operations refused because their access token had expired. */
  expired: number;
}

/** The refresh tokens a server issued, and what became of them. */
interface Session {
  /** The session's id, the access tokens' `sid`. */
  readonly id: string;
  readonly user: RestUser;
  /** The live refresh token of the session; a rotation replaces it. */
  current: string;
  revoked: boolean;
}

/** Where the servers read the time: a test clock, or `Date`. */
export interface ServerClock {
  now(): number;
  /** Makes a test clock's `advance()` wait for a request being answered. */
  track?(work: PromiseLike<unknown>): void;
}

const SECRET = new TextEncoder().encode('a-rest-test-secret-of-at-least-32-bytes');
const SCHEMA = buildSchema(`
  type User { id: ID! email: String! roles: [String!]! }
  type Query { me: User! ping(n: Int): Int }
`);

/** The tokens, users and sessions of a REST server, and what a test does to them. */
export function createRestAuthService(
  clock: ServerClock,
  { rotate = true, claims = defaultClaims, accessTokenTtl = 15 * 60 } = {},
) {
  // By refresh token (every one it was given, spent ones included), and by id.
  const sessions = new Map<string, Session>();
  const byId = new Map<string, Session>();
  const expired = new Set<string>();
  const issued: string[] = [];
  const stats: RestStats = {
    logins: 0,
    refreshes: 0,
    renewals: 0,
    refusals: 0,
    reuses: 0,
    logouts: 0,
    operations: 0,
    expired: 0,
  };

  const sign = async (user: RestUser, sid: string) => {
    const iat = Math.floor(clock.now() / 1000);
    const token = await new SignJWT({ ...claims(user), sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomBytes(8).toString('hex'))
      .setIssuedAt(iat)
      .setExpirationTime(iat + accessTokenTtl)
      .sign(SECRET);
    issued.push(token);
    return token;
  };
  const newRefreshToken = () => randomBytes(24).toString('base64url');
  // The claims of a valid access token of an `Authorization` header; undefined for none or an invalid one.
  const verify = async (authorization: string | undefined) => {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token) return undefined;
    return (await jwtVerify(token, SECRET, { currentDate: new Date(clock.now()) }).catch(() => undefined))?.payload;
  };

  return {
    stats,
    /** Every refresh token issued. */
    refreshTokens: [] as string[],
    /** Whether a request to the auth routes is answered: `'down'` closes its socket, `503` answers so. */
    outage: undefined as 'down' | 503 | undefined,
    async login(email: unknown, password: unknown) {
      stats.logins++;
      const user = REST_USERS.find((each) => each.email === email && each.password === password);
      if (!user) return null;
      const refreshToken = newRefreshToken();
      this.refreshTokens.push(refreshToken);
      const session: Session = { id: newRefreshToken(), user, current: refreshToken, revoked: false };
      sessions.set(refreshToken, session);
      byId.set(session.id, session);
      return { accessToken: await sign(user, session.id), refreshToken, user: publicUser(user) };
    },
    /** A new access token (and refresh token, when rotating) for a live refresh token; throws otherwise. */
    async refresh(refreshToken: string | undefined) {
      const session = refreshToken ? sessions.get(refreshToken) : undefined;
      if (!session || session.revoked || session.current !== refreshToken) {
        // A spent token presented again ends its session: reuse detection.
        if (session && session.current !== refreshToken) stats.reuses++;
        if (session) session.revoked = true;
        stats.refusals++;
        throw new Error('Invalid refresh token');
      }
      const next = rotate ? newRefreshToken() : refreshToken;
      if (rotate) {
        this.refreshTokens.push(next);
        session.current = next;
        sessions.set(next, session);
      }
      stats.renewals++;
      return { accessToken: await sign(session.user, session.id), refreshToken: next };
    },
    /** Revokes the session of a refresh token; `false` when there is none. */
    logout(refreshToken: string | undefined) {
      stats.logouts++;
      const session = refreshToken ? sessions.get(refreshToken) : undefined;
      if (session) session.revoked = true;
      return !!session;
    },
    /** Revokes the session an access token (an `Authorization` header) belongs to; `false` when it is not valid. */
    async logoutByAccessToken(authorization: string | undefined) {
      stats.logouts++;
      const session = byId.get((await verify(authorization))?.['sid'] as string);
      if (session) session.revoked = true;
      return !!session;
    },
    /** An admin revokes every session: their next refresh is refused. */
    revokeAll() {
      for (const session of sessions.values()) session.revoked = true;
    },
    /** The API takes every access token issued so far for expired (TOKEN_EXPIRED), as after a clock jump. */
    expireAccessTokens() {
      for (const token of issued) expired.add(token);
    },
    /** Answers a GraphQL request with the access token of its `Authorization` header. */
    async graphql(req: IncomingMessage, res: ServerResponse) {
      const { query, variables } = (await readJson(req)) as { query?: string; variables?: Record<string, unknown> };
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const refuse = (message: string, code: string) => send(res, 200, { errors: [{ message, extensions: { code } }] });
      if (!token) return refuse('Not authenticated', 'UNAUTHENTICATED');
      if (expired.has(token)) return (stats.expired++, refuse('jwt expired', 'TOKEN_EXPIRED'));
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, SECRET, { currentDate: new Date(clock.now()) }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) return (stats.expired++, refuse('jwt expired', 'TOKEN_EXPIRED'));
        return refuse('Not authenticated', 'UNAUTHENTICATED');
      }
      const session = byId.get(payload['sid'] as string);
      if (!session || session.revoked) return refuse('Session revoked', 'UNAUTHENTICATED');
      stats.operations++;
      const rootValue = { me: () => publicUser(session.user), ping: ({ n }: { n?: number }) => n ?? 0 };
      send(res, 200, await graphql({ schema: SCHEMA, source: query ?? '', rootValue, variableValues: variables }));
    },
  };
}

/** The service of a REST server. */
export type RestAuthService = ReturnType<typeof createRestAuthService>;

/** The claims these apps put in their access tokens: the user's id as `userId`, and `roles[]`. */
export function defaultClaims(user: RestUser): Record<string, unknown> {
  return { userId: user.id, email: user.email, roles: user.roles };
}

export const publicUser = ({ id, email, roles }: RestUser) => ({ id, email, roles });

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    return (JSON.parse(text || '{}') ?? {}) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string | string[]> = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers });
  res.end(text);
}

/** The cookies of a request, by name. */
export function cookiesOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    (req.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter(([name]) => name)
      .map(([name, ...value]) => [name, decodeURIComponent(value.join('='))]),
  );
}

/** A route: `'POST /auth/login'` and what answers it. */
export type Routes = Record<string, (req: IncomingMessage, res: ServerResponse) => unknown>;

/**
 * Serves `routes` and the service's `/graphql` with node:http on 127.0.0.1 (an ephemeral port), closed by
 * `cleanups`; resolves its origin. Requests to the auth routes meet the service's `outage`.
 */
export function serveRest(
  cleanups: Array<() => unknown>,
  service: RestAuthService,
  routes: Routes,
  clock: ServerClock,
) {
  const server = createServer((req, res) => {
    const key = `${req.method} ${new URL(req.url ?? '/', 'http://host').pathname}`;
    const route = key === 'POST /graphql' ? service.graphql.bind(service) : routes[key];
    if (!route) return send(res, 404, { message: `Cannot ${key}` });
    // Every refresh request counts, those an outage answers too.
    if (key.endsWith('/refresh')) service.stats.refreshes++;
    if (key !== 'POST /graphql' && service.outage === 'down') return void req.socket.destroy();
    if (key !== 'POST /graphql' && service.outage === 503) return void res.writeHead(503).end('Service Unavailable');
    const work = Promise.resolve(route(req, res)).catch((error: unknown) => send(res, 500, { message: String(error) }));
    clock.track?.(work);
  });
  return listenLocally(cleanups, server);
}
