// The contract's auth service (../README.md) on Mercurius 16 + Fastify 5, written the way Mercurius's docs teach:
//   - README "Quick Start": an SDL string and a resolvers map registered with `app.register(mercurius, ...)`;
//   - docs/context.md "Build a custom GraphQL context object" and docs/api/options.md (plugin option `context`,
//     which receives `request` and `reply`): the context function reads the Authorization header;
//   - docs/api/options.md "ErrorWithProps" > "Extensions": the one coded error, TOKEN_EXPIRED;
//   - docs/http.md "HTTP Status Codes": what the default error formatter sends;
//   - Fastify docs/Reference/Server.md `listen` and `close`.
// On the wire (Mercurius's defaultErrorFormatter): a plain `throw new Error('...')` in a resolver becomes
// `{ data: null, errors: [{ message, locations, path }] }`, no `extensions` and no code, HTTP 200, content-type
// application/json whatever the request's Accept. The ErrorWithProps (statusCode left at its default 200) adds
// `extensions: { code: 'TOKEN_EXPIRED' }`, also HTTP 200.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import mercurius from 'mercurius';
import jwt from 'jsonwebtoken';

const { ErrorWithProps } = mercurius;

const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT ?? 0);
const ACCESS_TOKEN_TTL = Number(process.env.ACCESS_TOKEN_TTL || 900);
const REFRESH_TOKEN_TTL = Number(process.env.REFRESH_TOKEN_TTL || 30 * 24 * 3600);
const JWT_SECRET = process.env.JWT_SECRET || randomBytes(32).toString('hex');

const users = [
  { id: 'u-admin', email: 'admin@interop.test', password: 'admin-pass', role: 'ADMIN' },
  { id: 'u-cashier', email: 'cashier@interop.test', password: 'cashier-pass', role: 'Cashier' },
];

/** sid → { userId, refreshJti (the one refresh token that may still be spent), live } */
const sessions = new Map();

function issuePair(user, sid) {
  const refreshJti = randomUUID();
  const accessToken = jwt.sign({ email: user.email, role: user.role, sid }, JWT_SECRET, {
    algorithm: 'HS256',
    subject: user.id,
    jwtid: randomUUID(),
    expiresIn: ACCESS_TOKEN_TTL,
  });
  const refreshToken = jwt.sign({ sid, typ: 'refresh' }, JWT_SECRET, {
    algorithm: 'HS256',
    subject: user.id,
    jwtid: refreshJti,
    expiresIn: REFRESH_TOKEN_TTL,
  });
  return { accessToken, refreshToken, refreshJti };
}

/** The live session of a refresh token that may still be spent, or null (spent, revoked, expired, not ours). */
function liveRefreshSession(token) {
  let claims;
  try {
    claims = jwt.verify(token, JWT_SECRET, { algorithms: ['HS256'] });
  } catch {
    return null;
  }
  if (claims.typ !== 'refresh') return null;
  const session = sessions.get(claims.sid);
  if (!session?.live || session.refreshJti !== claims.jti) return null;
  return { sid: claims.sid, session };
}

/** Judges the bearer token of a request: `{ user }`, or `{ expired: true }`, or `{}` (none, bad, dead session). */
function authenticate(authorization) {
  const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) return {};
  let claims;
  try {
    // jsonwebtoken checks the signature, then `exp`: an expired token is expired whatever its session.
    claims = jwt.verify(token, JWT_SECRET, { algorithms: ['HS256'] });
  } catch (err) {
    return err instanceof jwt.TokenExpiredError ? { expired: true } : {};
  }
  if (claims.typ === 'refresh' || !sessions.get(claims.sid)?.live) return {};
  const user = users.find((candidate) => candidate.id === claims.sub);
  return user ? { user } : {};
}

function requireUser(ctx) {
  if (ctx.auth.expired) throw new ErrorWithProps('Access token expired', { code: 'TOKEN_EXPIRED' });
  if (!ctx.auth.user) throw new Error('Not authenticated');
  return ctx.auth.user;
}

const schema = `
  type User {
    id: ID!
    email: String!
    role: String!
  }

  type AuthPayload {
    accessToken: String!
    refreshToken: String!
    user: User!
  }

  type TokenPair {
    accessToken: String!
    refreshToken: String!
  }

  type LogoutResult {
    success: Boolean!
  }

  type Club {
    id: ID!
    name: String!
  }

  type Query {
    me: User!
    club(id: ID!): Club!
  }

  type Mutation {
    loginWithEmailPassword(email: String!, password: String!): AuthPayload!
    refreshToken(token: String!): TokenPair!
    logout(refreshToken: String!): LogoutResult!
    renameClub(id: ID!, name: String!): Club!
  }
`;

const clubs = { c1: { id: 'c1', name: 'Riverside' } };

const resolvers = {
  Query: {
    me: (_, __, ctx) => requireUser(ctx),
    club: (_, { id }, ctx) => {
      requireUser(ctx);
      const club = clubs[id];
      if (!club) throw new Error('Club not found');
      return club;
    },
  },
  Mutation: {
    loginWithEmailPassword: (_, { email, password }) => {
      const user = users.find((candidate) => candidate.email === email && candidate.password === password);
      if (!user) throw new Error('Invalid email or password');
      const sid = randomUUID();
      const { refreshJti, ...pair } = issuePair(user, sid);
      sessions.set(sid, { userId: user.id, refreshJti, live: true });
      return { ...pair, user };
    },
    refreshToken: (_, { token }) => {
      const found = liveRefreshSession(token);
      const user = found && users.find((candidate) => candidate.id === found.session.userId);
      if (!user) throw new Error('Invalid refresh token');
      const { refreshJti, ...pair } = issuePair(user, found.sid);
      found.session.refreshJti = refreshJti;
      return pair;
    },
    logout: (_, { refreshToken }) => {
      const found = liveRefreshSession(refreshToken);
      if (!found) throw new Error('Invalid refresh token');
      found.session.live = false;
      return { success: true };
    },
    renameClub: (_, __, ctx) => {
      requireUser(ctx);
      throw new Error('Not allowed to edit this club');
    },
  },
};

const app = Fastify();

app.register(mercurius, {
  schema,
  resolvers,
  // Called per request; what it returns is the resolvers' third argument.
  context: (request) => ({ auth: authenticate(request.headers.authorization) }),
});

process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

try {
  await app.listen({ host: HOST, port: PORT });
} catch (err) {
  console.error(err);
  process.exit(1);
}
console.log(`listening on http://127.0.0.1:${app.server.address().port}/graphql`);
