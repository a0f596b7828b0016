import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** A user the spec servers know. */
export interface SpecUser {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly role: string;
}

/** The users every spec server starts with: the built-in staff role and a custom one. */
export const SPEC_USERS: readonly SpecUser[] = [
  { id: 'u-admin', email: 'admin@interop.test', password: 'admin-pass', role: 'ADMIN' },
  { id: 'u-cashier', email: 'cashier@interop.test', password: 'cashier-pass', role: 'Cashier' },
];

/** Options of {@link createSpecAuthService}. */
export interface SpecAuthServiceOptions {
  /** The access token's life, in seconds. @defaultValue `900` (the spec's 15 minutes) */
  accessTokenTtl?: number;
  /** The refresh token's life, in seconds. @defaultValue 30 days */
  refreshTokenTtl?: number;
  /** The server's clock, in ms: it sets `iat`/`exp` and judges them. @defaultValue `Date.now` */
  now?: () => number;
  /**
   * What a refresh token presented twice does: `'refuse'` refuses the second use only; `'revoke'` also ends the
   * session it belongs to (reuse detection, as OAuth's refresh token rotation advises).
   * @defaultValue `'refuse'`
   */
  reuse?: 'refuse' | 'revoke';
  /**
   * Faults that break the contract, for the doctor's tests: `reusableRefreshTokens` accepts a spent refresh
   * token again; `logoutKeepsAccess` kills only the refresh token at logout; `expInMilliseconds` writes `exp` in
   * ms; `hangRefresh` never answers `refreshToken`.
   */
  faults?: {
    reusableRefreshTokens?: boolean;
    logoutKeepsAccess?: boolean;
    expInMilliseconds?: boolean;
    hangRefresh?: boolean;
  };
}

/** A pair and the user, as `loginWithEmailPassword` answers. */
export interface SpecLogin {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly user: { readonly id: string; readonly email: string; readonly role: string };
}

/** What the service counted: the calls each mutation received, and how many succeeded. */
export interface SpecAuthStats {
  logins: number;
  loginSuccesses: number;
  refreshes: number;
  refreshSuccesses: number;
  logouts: number;
  /** `me` queries, whatever their outcome. */
  meQueries: number;
}

/** The verdict on a bearer token: the user, or why not. */
export type SpecAuthentication = { readonly user: SpecUser } | 'expired' | 'invalid' | 'missing';

/**
 * The framework-free core of the spec servers: users, sessions, HS256 tokens signed with jose, and the hooks a
 * test drives. The resolvers of each framework call it and throw the framework's errors themselves.
 */
export interface SpecAuthService {
  /** A pair for valid credentials; `null` otherwise. */
  login(email: string, password: string): Promise<SpecLogin | null>;
  /**
   * A new pair for a live refresh token, which is spent; `null` for one that is used, revoked, expired or not
   * ours. Throws a plain `Error('db down')` while {@link SpecAuthService.failRefreshes} says so.
   */
  refresh(token: string): Promise<{ accessToken: string; refreshToken: string } | null>;
  /** Ends the session of a live refresh token, killing both its tokens; `false` when it was not live. */
  logout(refreshToken: string): Promise<boolean>;
  /** Judges an `Authorization` header (or a bare token): an access token of a live session, unexpired. */
  authenticate(authorization: string | null | undefined): Promise<SpecAuthentication>;
  /** Ends every session of `userId` (an admin's "sign out everywhere"); returns how many were live. */
  revokeAll(userId: string): number;
  /** Ends the session a token (access or refresh) belongs to; `false` when it was not live or not ours. */
  revokeSession(token: string): Promise<boolean>;
  /** Makes the next `count` refreshes throw a plain `Error('db down')` before they touch the token. */
  failRefreshes(count: number): void;
  /** Access tokens issued before now count as expired from now on (a server whose clock jumped). */
  expireAccessTokens(): void;
  readonly stats: SpecAuthStats;
  readonly users: readonly SpecUser[];
}

interface Session {
  readonly userId: string;
  /** The `jti` of the one refresh token that may still be spent. */
  refreshJti: string;
  live: boolean;
}

/** Creates a {@link SpecAuthService} with {@link SPEC_USERS}. */
export function createSpecAuthService(options: SpecAuthServiceOptions = {}): SpecAuthService {
  const {
    accessTokenTtl = 900,
    refreshTokenTtl = 30 * 24 * 3600,
    now = Date.now,
    reuse = 'refuse',
    faults = {},
  } = options;
  const secret = new TextEncoder().encode(`interop-${randomUUID()}`);
  const sessions = new Map<string, Session>();
  const stats: SpecAuthStats = {
    logins: 0,
    loginSuccesses: 0,
    refreshes: 0,
    refreshSuccesses: 0,
    logouts: 0,
    meQueries: 0,
  };
  let failing = 0;
  // Access tokens carry a serial number as `jti`: those up to this one count as expired.
  let serial = 0;
  let expiredUpTo = 0;

  const seconds = () => Math.floor(now() / 1000);

  async function issue(user: SpecUser, sid: string) {
    const iat = seconds();
    const refreshJti = randomUUID();
    const accessToken = await new SignJWT({ role: user.role, email: user.email, sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setJti(String(++serial))
      .setIssuedAt(iat)
      .setExpirationTime(faults.expInMilliseconds ? (iat + accessTokenTtl) * 1000 : iat + accessTokenTtl)
      .sign(secret);
    const refreshToken = await new SignJWT({ sid, typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setJti(refreshJti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + refreshTokenTtl)
      .sign(secret);
    return { accessToken, refreshToken, refreshJti };
  }

  async function verify(token: string) {
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(now()) });
      return payload;
    } catch (error) {
      return error instanceof errors.JWTExpired ? ('expired' as const) : ('invalid' as const);
    }
  }

  const userById = (id: unknown) => SPEC_USERS.find((user) => user.id === id);

  return {
    stats,
    users: SPEC_USERS,
    async login(email, password) {
      stats.logins += 1;
      const user = SPEC_USERS.find((candidate) => candidate.email === email && candidate.password === password);
      if (!user) return null;
      const sid = randomUUID();
      const { refreshJti, ...pair } = await issue(user, sid);
      sessions.set(sid, { userId: user.id, refreshJti, live: true });
      stats.loginSuccesses += 1;
      return { ...pair, user: { id: user.id, email: user.email, role: user.role } };
    },
    async refresh(token) {
      stats.refreshes += 1;
      if (faults.hangRefresh) return new Promise(() => {});
      if (failing > 0) {
        failing -= 1;
        throw new Error('db down');
      }
      const claims = await verify(token);
      if (typeof claims === 'string' || claims['typ'] !== 'refresh') return null;
      const session = sessions.get(claims['sid'] as string);
      const user = userById(claims.sub);
      if (!session?.live || !user) return null;
      if (session.refreshJti !== claims.jti && !faults.reusableRefreshTokens) {
        if (reuse === 'revoke') session.live = false;
        return null;
      }
      const { refreshJti, ...pair } = await issue(user, claims['sid'] as string);
      session.refreshJti = refreshJti;
      stats.refreshSuccesses += 1;
      return pair;
    },
    async logout(refreshToken) {
      stats.logouts += 1;
      const claims = await verify(refreshToken);
      if (typeof claims === 'string' || claims['typ'] !== 'refresh') return false;
      const session = sessions.get(claims['sid'] as string);
      if (!session?.live || session.refreshJti !== claims.jti) return false;
      if (faults.logoutKeepsAccess) session.refreshJti = '';
      else session.live = false;
      return true;
    },
    async authenticate(authorization) {
      const token = authorization?.replace(/^Bearer\s+/i, '');
      if (!token) return 'missing';
      const claims = await verify(token);
      if (typeof claims === 'string') return claims;
      if (claims['typ'] === 'refresh') return 'invalid';
      // Expiry first, as a verification of `exp` would find it: an expired token of a revoked session is expired.
      if (Number(claims.jti) <= expiredUpTo) return 'expired';
      const user = userById(claims.sub);
      if (!user || !sessions.get(claims['sid'] as string)?.live) return 'invalid';
      return { user };
    },
    revokeAll(userId) {
      let count = 0;
      for (const session of sessions.values()) {
        if (session.userId === userId && session.live) {
          session.live = false;
          count += 1;
        }
      }
      return count;
    },
    async revokeSession(token) {
      const claims = await verify(token);
      const session = typeof claims === 'string' ? undefined : sessions.get(claims['sid'] as string);
      if (!session?.live) return false;
      session.live = false;
      return true;
    },
    failRefreshes(count) {
      failing = count;
    },
    expireAccessTokens() {
      expiredUpTo = serial;
    },
  };
}
