import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, SignJWT } from 'jose';

// A REST auth server written the way the tutorials teach one: node:http, JSON bodies, JWTs signed with jose (a
// 15-minute access token, a 7-day refresh token), and a table of the refresh tokens it issued, so that a refresh
// rotates them and a logout revokes them.
//
//   POST /auth/login     { email, password }  → { accessToken, refreshToken, user }
//   POST /auth/register  { email, password }  → the same, for a new account
//   POST /auth/refresh   { refreshToken }     → { accessToken, refreshToken }, or { accessToken } when it does not rotate
//   POST /auth/logout    { refreshToken }     → 204
//
// A wrong password, or a refresh token that is unknown, used, revoked or expired, is 401 { message }.

/** The account every REST server has. */
export const ADA = { id: 'u_ada', email: 'ada@example.com', password: 'ada-pass', role: 'ADMIN' } as const;

const ACCESS_SECRET = new TextEncoder().encode('access-secret-of-the-rest-auth-server');
const REFRESH_SECRET = new TextEncoder().encode('refresh-secret-of-the-rest-auth-server');
const ACCESS_TTL = 15 * 60;
const REFRESH_TTL = 7 * 24 * 60 * 60;

export type RestRoute = 'login' | 'register' | 'refresh' | 'logout';

export interface RestAuthServerOptions {
  /** The clock tokens are issued and checked by, in ms. @defaultValue `Date.now` */
  now?: () => number;
  /**
   * `false`: a refresh answers `{ accessToken }` alone and the refresh token stays valid (RFC 6749 §6).
   * @defaultValue `true`
   */
  rotate?: boolean;
}

/** One request a route received. */
export interface RestCall {
  readonly route: RestRoute;
  /** Its `X-Forwarded-For` header. */
  readonly forwardedFor: string | undefined;
  /** The refresh token of a `/refresh` or `/logout`. */
  readonly refreshToken?: string;
}

export interface RestAuthServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Every request a route received, in order. */
  readonly calls: RestCall[];
  /** Every refresh token issued, in order. */
  readonly issued: string[];
  /** How many requests `route` received. */
  count(route: RestRoute): number;
  /** While `true`, every route answers 503: an outage. */
  down: boolean;
  /** Revokes every refresh token issued. */
  revokeAll(): void;
  /** Holds the answers of `/refresh` until the function returned is called. */
  holdRefreshes(): () => void;
}

/** Starts a REST auth server on 127.0.0.1 (an ephemeral port), closed by `cleanups`. */
export async function startRestAuthServer(
  cleanups: Array<() => unknown>,
  { now = Date.now, rotate = true }: RestAuthServerOptions = {},
): Promise<RestAuthServer> {
  const users = new Map<string, { id: string; email: string; password: string; role: string }>([[ADA.email, ADA]]);
  // The refresh tokens that are valid: their jti, and whose they are.
  const sessions = new Map<string, string>();
  let held: Promise<void> | undefined;
  const seconds = () => Math.floor(now() / 1000);

  async function issue(user: { id: string; email: string; role: string }, withRefreshToken = true) {
    const accessToken = await new SignJWT({ email: user.email, role: user.role })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(seconds())
      .setExpirationTime(seconds() + ACCESS_TTL)
      .sign(ACCESS_SECRET);
    if (!withRefreshToken) return { accessToken };
    const jti = randomUUID();
    const refreshToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti(jti)
      .setIssuedAt(seconds())
      .setExpirationTime(seconds() + REFRESH_TTL)
      .sign(REFRESH_SECRET);
    sessions.set(jti, user.id);
    server.issued.push(refreshToken);
    return { accessToken, refreshToken };
  }

  // The jti of a refresh token this server issued and has not revoked; `undefined` for any other.
  async function verify(refreshToken: unknown): Promise<string | undefined> {
    if (typeof refreshToken !== 'string') return undefined;
    try {
      const { payload } = await jwtVerify(refreshToken, REFRESH_SECRET, { currentDate: new Date(now()) });
      return payload.jti && sessions.has(payload.jti) ? payload.jti : undefined;
    } catch {
      return undefined;
    }
  }

  const routes: Record<RestRoute, (body: Record<string, unknown>) => Promise<[number, unknown?]>> = {
    async login({ email, password }) {
      const user = users.get(String(email));
      if (!user || user.password !== password) return [401, { message: 'Invalid email or password' }];
      return [200, { ...(await issue(user)), user: { id: user.id, email: user.email, role: user.role } }];
    },
    async register({ email, password }) {
      if (users.has(String(email))) return [409, { message: 'Email already registered' }];
      const user = { id: `u_${users.size + 1}`, email: String(email), password: String(password), role: 'MEMBER' };
      users.set(user.email, user);
      return [200, { ...(await issue(user)), user: { id: user.id, email: user.email, role: user.role } }];
    },
    async refresh({ refreshToken }) {
      await held;
      const jti = await verify(refreshToken);
      if (!jti) return [401, { message: 'Invalid refresh token' }];
      const user = [...users.values()].find((each) => each.id === sessions.get(jti))!;
      if (!rotate) return [200, await issue(user, false)];
      sessions.delete(jti);
      return [200, await issue(user)];
    },
    async logout({ refreshToken }) {
      const jti = await verify(refreshToken);
      if (jti) sessions.delete(jti);
      return [204];
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const route = /^\/auth\/(login|register|refresh|logout)$/.exec(request.url ?? '')?.[1] as RestRoute | undefined;
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    const send = (status: number, answer?: unknown) => {
      response.writeHead(status, answer === undefined ? {} : { 'content-type': 'application/json' });
      response.end(answer === undefined ? undefined : JSON.stringify(answer));
    };
    if (request.method !== 'POST' || !route) return send(404, { message: 'Not found' });
    server.calls.push({
      route,
      forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
      ...(typeof body.refreshToken === 'string' && { refreshToken: body.refreshToken }),
    });
    if (server.down) return send(503, { message: 'Service unavailable' });
    const [status, answer] = await routes[route](body);
    send(status, answer);
  }

  const http = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  const server: RestAuthServer = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    calls: [],
    issued: [],
    count: (route) => server.calls.filter((call) => call.route === route).length,
    down: false,
    revokeAll: () => sessions.clear(),
    holdRefreshes() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  };
  return server;
}
