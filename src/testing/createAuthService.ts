import type { TokenPair } from '../index';
import { authError } from './authError';
import type { IdTokenIssuer } from './createIdTokenIssuer';
import type { OneTimeCodes } from './createOneTimeCodes';
import { createSignInDoors, secondFactorRequired } from './createSignInDoors';
import type { AccessClaims, Refusal, TokenSigner } from './createTokenSigner';
import { takeDrop, type Pauses, type TestAuthServerFaults } from './faults';
import { pushBounded, type TestAuthServerStats } from './stats';
import { findByCredentials, visibleClubs, type SeedUser } from './users';

const randomUUID = () => crypto.randomUUID();

/** What the resolvers know of the HTTP request they serve. */
export interface RequestContext {
  /** The raw Authorization header, '' when absent. */
  authorization: string;
  /** Set by a refreshToken resolver whose request must end by destroying the socket instead of answering. */
  dropResponse: boolean;
  /** Aborts when the client gives up on the request. */
  signal?: AbortSignal;
  /** Called when the request starts to hang on purpose (`faults.hangRefresh`): a test clock stops waiting for it. */
  hung?: () => void;
}

/** Lifetimes (seconds) that override the service defaults for one pair. */
export interface TokenTtls {
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
}

/** What the auth service needs from its server. */
export interface AuthServiceOptions {
  signer: TokenSigner;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** Whether a refresh rotates the refresh token (the contract), or renews the access token alone. */
  rotate: boolean;
  /** The server's accounts, to which the sign-in doors add those who sign up. */
  users: SeedUser[];
  stats: TestAuthServerStats;
  faults: TestAuthServerFaults;
  /** The one-time codes of the sign-in doors (by e-mail, and second factors). */
  codes: OneTimeCodes;
  /** The test identity provider whose ID tokens `signInWithIdToken` takes. */
  idTokens: IdTokenIssuer;
  /** The waits of delayed and hung resolvers, ended when the server closes. */
  pauses: Pauses;
}

/** The sessions and resolvers of one auth server. */
export interface AuthService {
  /** The GraphQL root value: the resolvers of every Query and Mutation field. */
  rootValue: object;
  /**
   * Whose `Authorization` value this is, checked as every authenticated field checks it (expiry, the mark of
   * `expireAllAccessTokens`, revocation). Throws the field's error: `UNAUTHENTICATED` or `TOKEN_EXPIRED`.
   */
  authenticate(authorization: string): Promise<{ user: SeedUser; claims: AccessClaims & { exp?: number } }>;
  /** Opens a session for the user with `email` as login would, without counting a login. */
  issueTokens(email: string, ttls?: TokenTtls): Promise<TokenPair>;
  expireAllAccessTokens(): void;
  revokeAllSessions(): void;
}

/** What the public `catalogue` query answers. */
const CATALOGUE = ['Membership', 'Day pass', 'Coaching'];

/** Creates the sessions and resolvers of one auth server, all state held in this closure. */
export function createAuthService(options: AuthServiceOptions): AuthService {
  const { signer, stats, faults, pauses, users } = options;
  const delayField = (field: string, context: RequestContext) => {
    const ms = faults.delayMs[field] ?? 0;
    return ms > 0 ? pauses.wait(ms, context.signal) : undefined;
  };
  // A revoked session is deleted, which refuses every token of its family at once.
  const sessions = new Map<string, { user: SeedUser; refreshJti: string }>();
  // Club names as renameClub left them: shared by every user, as in one organization.
  const clubNames = new Map<string, string>();
  const named = (club: { id: string; name: string }) => ({ id: club.id, name: clubNames.get(club.id) ?? club.name });
  let lastSerial = 0;
  let expiredBelow = 0;

  function issueAccess(user: SeedUser, sid: string, ttls: TokenTtls = {}): Promise<string> {
    const access = { sub: user.id, email: user.email, role: user.role, sid, jti: randomUUID(), n: ++lastSerial };
    return signer.signAccess({ ...access, ...user.permissions }, ttls.accessTokenTtl ?? options.accessTokenTtl);
  }

  async function issuePair(user: SeedUser, sid: string, refreshJti: string, ttls: TokenTtls = {}): Promise<TokenPair> {
    const [accessToken, refreshToken] = await Promise.all([
      issueAccess(user, sid, ttls),
      signer.signRefresh({ sub: user.id, sid, jti: refreshJti }, ttls.refreshTokenTtl ?? options.refreshTokenTtl),
    ]);
    pushBounded(stats.refreshTokensIssued, refreshToken);
    return { accessToken, refreshToken };
  }

  function openSession(user: SeedUser, ttls?: TokenTtls): Promise<TokenPair> {
    const sid = randomUUID();
    const refreshJti = randomUUID();
    sessions.set(sid, { user, refreshJti });
    return issuePair(user, sid, refreshJti, ttls);
  }

  async function authenticate(authorization: string) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (token === undefined) throw authError('UNAUTHENTICATED', 'Missing or malformed Authorization: Bearer header');
    const claims = await signer.verifyAccess(token);
    if (claims === 'invalid') throw authError('UNAUTHENTICATED', 'Invalid access token');
    if (claims === 'expired' || claims.n < expiredBelow) throw authError('TOKEN_EXPIRED', 'Access token expired');
    const session = sessions.get(claims.sid);
    if (session === undefined) throw authError('UNAUTHENTICATED', 'Session revoked');
    return { user: session.user, claims };
  }

  const authenticatedUser = async (context: RequestContext) => (await authenticate(context.authorization)).user;

  function refused(refusal: Refusal) {
    return refusal === 'expired'
      ? authError('INVALID_REFRESH_TOKEN', 'Refresh token expired; log in again')
      : authError('INVALID_REFRESH_TOKEN', 'Invalid refresh token');
  }

  const rootValue = {
    async me(_args: unknown, context: RequestContext) {
      await delayField('me', context);
      return authenticatedUser(context);
    },

    async clubs(_args: unknown, context: RequestContext) {
      await delayField('clubs', context);
      return visibleClubs(await authenticatedUser(context)).map(named);
    },

    async renameClub({ id, name }: { id: string; name: string }, context: RequestContext) {
      await delayField('renameClub', context);
      const club = visibleClubs(await authenticatedUser(context)).find((each) => each.id === id);
      if (club === undefined) throw authError('NOT_FOUND', `Club not found: ${id}`);
      clubNames.set(id, name);
      stats.renames += 1;
      return named(club);
    },

    async catalogue(_args: unknown, context: RequestContext) {
      await delayField('catalogue', context);
      return CATALOGUE;
    },

    async ping({ n }: { n?: number | null }, context: RequestContext) {
      await delayField('ping', context);
      await authenticatedUser(context);
      return n ?? 0;
    },

    async loginWithEmailPassword({ email, password }: { email: string; password: string }, context: RequestContext) {
      stats.loginCalls += 1;
      await delayField('loginWithEmailPassword', context);
      const user = findByCredentials(users, email, password);
      if (user === undefined) throw authError('INVALID_CREDENTIALS', 'Invalid email or password');
      if (user.secondFactor) throw secondFactorRequired();
      return { ...(await openSession(user)), user };
    },

    async refreshToken({ token }: { token: string }, context: RequestContext) {
      stats.refreshCalls += 1;
      pushBounded(stats.refreshTokensSubmitted, token);
      await delayField('refreshToken', context);
      if (faults.hangRefresh) {
        context.hung?.();
        await pauses.wait(undefined, context.signal);
      }
      if (faults.rejectRefresh) throw authError('INVALID_REFRESH_TOKEN', 'Refresh token refused by the test');

      const claims = await signer.verifyRefresh(token);
      if (typeof claims === 'string') throw refused(claims);
      const session = sessions.get(claims.sid);
      if (session === undefined) throw authError('INVALID_REFRESH_TOKEN', 'Session revoked; log in again');
      if (!options.rotate) {
        // A server that does not rotate: the same refresh token, which stays good.
        const accessToken = await issueAccess(session.user, claims.sid);
        stats.refreshSuccesses += 1;
        return { accessToken, refreshToken: token };
      }
      if (session.refreshJti !== claims.jti) {
        stats.reuseDetections += 1;
        sessions.delete(claims.sid);
        throw authError('INVALID_REFRESH_TOKEN', 'Refresh token already used; session revoked');
      }
      // Rotate before the await of signing, so a concurrent refresh with the same token finds it spent.
      session.refreshJti = randomUUID();
      const pair = await issuePair(session.user, claims.sid, session.refreshJti);
      stats.refreshSuccesses += 1;
      // Only a refresh that rotated loses its answer: the lost answer the fault stands for spent a token.
      context.dropResponse ||= takeDrop(faults);
      return pair;
    },

    async logout({ refreshToken }: { refreshToken: string }, context: RequestContext) {
      stats.logoutCalls += 1;
      await delayField('logout', context);
      const claims = await signer.verifyRefresh(refreshToken);
      if (typeof claims === 'string') throw refused(claims);
      const session = sessions.get(claims.sid);
      if (session === undefined) throw authError('INVALID_REFRESH_TOKEN', 'Session already revoked');
      // A spent token is invalid, and the strictest reading of the spec keeps the session alive: a client that
      // logs out with a token it rotated already (a logout racing a refresh) must revoke the newest pair itself.
      if (session.refreshJti !== claims.jti) throw authError('INVALID_REFRESH_TOKEN', 'Refresh token already used');
      sessions.delete(claims.sid);
      return { success: true };
    },

    ...withDelays(createSignInDoors({ ...options, openSession: (user) => openSession(user) }), delayField),
  };

  return {
    rootValue,
    authenticate,
    async issueTokens(email, ttls) {
      const user = users.find((candidate) => candidate.email === email);
      if (user === undefined) throw new Error(`issueTokens: no user with the email ${email}`);
      return openSession(user, ttls);
    },
    expireAllAccessTokens() {
      expiredBelow = lastSerial + 1;
    },
    revokeAllSessions() {
      sessions.clear();
    },
  };
}

/** The resolvers `doors`, each waiting first for the delay `faults.delayMs` sets on its field. */
function withDelays(
  doors: Record<string, (args: never) => Promise<unknown>>,
  delayField: (field: string, context: RequestContext) => Promise<void> | undefined,
) {
  const delayed = Object.entries(doors).map(([field, resolve]) => {
    const resolver = async (args: never, context: RequestContext) => {
      await delayField(field, context);
      return resolve(args);
    };
    return [field, resolver] as const;
  });
  return Object.fromEntries(delayed);
}
