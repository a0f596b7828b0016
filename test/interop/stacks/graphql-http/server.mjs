// The contract's auth service (../README.md) on graphql-http 1 over node:http, written the way graphql-http's
// README teaches:
//   - "Getting started" > "Create a GraphQL schema": a `GraphQLSchema` of `GraphQLObjectType`s whose fields carry
//     their own `resolve`;
//   - "Start the server" > "With http": `createHandler` from `graphql-http/lib/use/http` on `http.createServer`,
//     routing `/graphql` to it;
//   - "Server handler usage with custom context value" and "... with authentication": the `context` option reads
//     `req.headers.authorization` (it does not answer 401 itself: login and refresh need no token);
//   - graphql-js's `GraphQLError` with `extensions` for the one coded error, TOKEN_EXPIRED.
// On the wire: a plain `throw new Error('...')` in a resolver becomes `{ errors: [{ message, locations, path }],
// data: null }`, no `extensions` and no code, HTTP 200 (an execution error is a 200 whatever the Accept; only
// request, parse and validation errors are 400 under application/graphql-response+json). The content type follows
// the Accept: application/graphql-response+json for what Apollo's HttpLink sends. TOKEN_EXPIRED is the same plus
// `extensions: { code: 'TOKEN_EXPIRED' }`, HTTP 200.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLID,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import jwt from 'jsonwebtoken';

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

function requireUser(context) {
  if (context.auth.expired) throw new GraphQLError('Access token expired', { extensions: { code: 'TOKEN_EXPIRED' } });
  if (!context.auth.user) throw new Error('Not authenticated');
  return context.auth.user;
}

const nonNull = (type) => new GraphQLNonNull(type);

const User = new GraphQLObjectType({
  name: 'User',
  fields: {
    id: { type: nonNull(GraphQLID) },
    email: { type: nonNull(GraphQLString) },
    role: { type: nonNull(GraphQLString) },
  },
});

const AuthPayload = new GraphQLObjectType({
  name: 'AuthPayload',
  fields: {
    accessToken: { type: nonNull(GraphQLString) },
    refreshToken: { type: nonNull(GraphQLString) },
    user: { type: nonNull(User) },
  },
});

const TokenPair = new GraphQLObjectType({
  name: 'TokenPair',
  fields: {
    accessToken: { type: nonNull(GraphQLString) },
    refreshToken: { type: nonNull(GraphQLString) },
  },
});

const LogoutResult = new GraphQLObjectType({
  name: 'LogoutResult',
  fields: {
    success: { type: nonNull(GraphQLBoolean) },
  },
});

const Club = new GraphQLObjectType({
  name: 'Club',
  fields: {
    id: { type: nonNull(GraphQLID) },
    name: { type: nonNull(GraphQLString) },
  },
});

const clubs = { c1: { id: 'c1', name: 'Riverside' } };

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      me: {
        type: nonNull(User),
        resolve: (_, __, context) => requireUser(context),
      },
      club: {
        type: nonNull(Club),
        args: { id: { type: nonNull(GraphQLID) } },
        resolve: (_, { id }, context) => {
          requireUser(context);
          const club = clubs[id];
          if (!club) throw new Error('Club not found');
          return club;
        },
      },
    },
  }),
  mutation: new GraphQLObjectType({
    name: 'Mutation',
    fields: {
      loginWithEmailPassword: {
        type: nonNull(AuthPayload),
        args: { email: { type: nonNull(GraphQLString) }, password: { type: nonNull(GraphQLString) } },
        resolve: (_, { email, password }) => {
          const user = users.find((candidate) => candidate.email === email && candidate.password === password);
          if (!user) throw new Error('Invalid email or password');
          const sid = randomUUID();
          const { refreshJti, ...pair } = issuePair(user, sid);
          sessions.set(sid, { userId: user.id, refreshJti, live: true });
          return { ...pair, user };
        },
      },
      refreshToken: {
        type: nonNull(TokenPair),
        args: { token: { type: nonNull(GraphQLString) } },
        resolve: (_, { token }) => {
          const found = liveRefreshSession(token);
          const user = found && users.find((candidate) => candidate.id === found.session.userId);
          if (!user) throw new Error('Invalid refresh token');
          const { refreshJti, ...pair } = issuePair(user, found.sid);
          found.session.refreshJti = refreshJti;
          return pair;
        },
      },
      logout: {
        type: nonNull(LogoutResult),
        args: { refreshToken: { type: nonNull(GraphQLString) } },
        resolve: (_, { refreshToken }) => {
          const found = liveRefreshSession(refreshToken);
          if (!found) throw new Error('Invalid refresh token');
          found.session.live = false;
          return { success: true };
        },
      },
      renameClub: {
        type: nonNull(Club),
        args: { id: { type: nonNull(GraphQLID) }, name: { type: nonNull(GraphQLString) } },
        resolve: (_, __, context) => {
          requireUser(context);
          throw new Error('Not allowed to edit this club');
        },
      },
    },
  }),
});

const handler = createHandler({
  schema,
  // Called per request; what it returns is the resolvers' third argument.
  context: (req) => ({ auth: authenticate(req.headers.authorization) }),
});

const server = http.createServer((req, res) => {
  if (req.url.startsWith('/graphql')) {
    handler(req, res);
  } else {
    res.writeHead(404).end();
  }
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

server.listen(PORT, HOST, () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/graphql`);
});
