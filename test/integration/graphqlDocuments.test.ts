import { createServer } from 'node:http';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it, vi } from 'vitest';
import { createGraphQLTransport, type TokenAuthTransport } from '../../src';
import { createTestClock } from '../../src/testing';
import { listenLocally, useCleanups } from '../helpers/overHttp';
import { createRestAuthService, type ServerClock } from '../helpers/restAuthService';
import { browserFetch, openRestSession } from '../helpers/restServers';
import { type CookieJar, createCookieJar } from '../helpers/tokenHandler';
import { graphqlCookieTransport } from '../readme/rest/graphqlCookieTransport';
import { graphqlHeaderTransport } from '../readme/rest/graphqlHeaderTransport';

const cleanups = useCleanups();
const MINUTE = 60_000;
const COOKIE = 'refresh_token';

// Mutations without the contract's arguments, as servers that moved the refresh token out of the variables have them.
const typeDefs = /* GraphQL */ `
  type User {
    id: ID!
    email: String!
    role: String
  }
  type Session {
    accessToken: String!
    refreshToken: String
    user: User
  }
  type SignOut {
    ok: Boolean!
  }
  type Query {
    health: Boolean
  }
  type Mutation {
    loginWithEmailPassword(email: String!, password: String!): Session!
    "Reads the refresh token from Authorization: Bearer."
    refreshSession: Session!
    "Reads the refresh token from the cookie, and rewrites it."
    renewSession: Session!
    "Authenticated by the access token; clears the cookie."
    signOut: Boolean!
    "The same, answering an object."
    endSession: SignOut!
  }
`;

interface Context {
  readonly request: Request;
}

/**
 * A GraphQL Yoga server as its docs teach it (`createYoga`, `createSchema`, `node:http`), on 127.0.0.1, whose refresh
 * and logout take no argument. It records the variables and `Authorization` of every request; a plugin's
 * `onResponse` sets the cookies its resolvers asked for.
 */
async function startYoga(clock: ServerClock) {
  const service = createRestAuthService(clock);
  const seen: Array<{ operation: string; variables: unknown; authorization: string | null }> = [];
  const cookies = new WeakMap<Request, string>();
  const setCookie = (request: Request, token: string, maxAge = 30 * 24 * 3600) =>
    cookies.set(request, `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}`);
  const bearer = (request: Request) => /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const cookieOf = (request: Request) =>
    /(?:^|;\s*)refresh_token=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  const refused = () => new GraphQLError('Invalid refresh token', { extensions: { code: 'INVALID_REFRESH_TOKEN' } });
  const withCookies: Plugin = {
    onResponse({ request, response }) {
      const cookie = cookies.get(request);
      if (cookie) response.headers.append('set-cookie', cookie);
    },
  };
  const user = (session: { user: { id: number; email: string; roles: readonly string[] } }) => ({
    ...session.user,
    role: session.user.roles[0],
  });
  const yoga = createYoga<Context>({
    schema: createSchema<Context>({
      typeDefs,
      resolvers: {
        Mutation: {
          async loginWithEmailPassword(_, { email, password }: { email: string; password: string }, { request }) {
            const session = await service.login(email, password);
            if (!session) throw new GraphQLError('Invalid email or password');
            setCookie(request, session.refreshToken);
            return { ...session, user: user(session) };
          },
          refreshSession: (_, __, { request }) =>
            service.refresh(bearer(request)).catch(() => Promise.reject(refused())),
          async renewSession(_, __, { request }) {
            const pair = await service.refresh(cookieOf(request)).catch(() => Promise.reject(refused()));
            setCookie(request, pair.refreshToken);
            return { accessToken: pair.accessToken };
          },
          async signOut(_, __, { request }) {
            setCookie(request, '', 0);
            return service.logoutByAccessToken(request.headers.get('authorization') ?? undefined);
          },
          endSession: async (_, __, { request }) => ({
            ok: await service.logoutByAccessToken(request.headers.get('authorization') ?? undefined),
          }),
        },
      },
    }),
    plugins: [
      withCookies,
      {
        onParams({ params, request }) {
          const operation = /\{\s*(?:\w+:\s*)?(\w+)/.exec(params.query ?? '')?.[1] ?? '';
          seen.push({ operation, variables: params.variables, authorization: request.headers.get('authorization') });
        },
      } satisfies Plugin,
    ],
    logging: false,
  });
  const origin = await listenLocally(cleanups, createServer(yoga));
  return { url: `${origin}/graphql`, service, seen };
}

/** A browser on a test clock in front of a Yoga server; `open(transport)` is a page load. */
async function browser(jar: CookieJar = createCookieJar()) {
  const clock = createTestClock();
  vi.stubGlobal('fetch', browserFetch({ jar, clock }));
  cleanups.push(() => vi.unstubAllGlobals());
  const yoga = await startYoga(clock);
  const open = (transport: TokenAuthTransport) => openRestSession(cleanups, transport, clock);
  return { clock, jar, yoga, open };
}

const settled = (auth: { getState(): { status: string } }) =>
  vi.waitFor(() => expect(auth.getState().status).not.toBe('loading'), { timeout: 3000, interval: 5 });

describe('createGraphQLTransport: documents without the contract arguments, against GraphQL Yoga', () => {
  it("refreshTokenIn: 'header' sends the refresh token as Authorization: Bearer, and no variable the document lacks", async () => {
    const { clock, yoga, open } = await browser();
    const { auth } = open(graphqlHeaderTransport(yoga.url));
    await auth.login('ada@example.test', 'lovelace');
    const [refreshToken] = yoga.service.refreshTokens;
    await clock.advance(15 * MINUTE);
    const refresh = yoga.seen.find((each) => each.operation === 'refreshSession');
    expect(refresh).toEqual({ operation: 'refreshSession', variables: {}, authorization: `Bearer ${refreshToken}` });
    expect(yoga.service.refreshTokens).toHaveLength(2);
    expect(auth.getState().status).toBe('authenticated');
  });

  it('a logout by the access token answering a Boolean revokes the session, and sends no refresh token', async () => {
    const { yoga, open } = await browser();
    const page = open(graphqlHeaderTransport(yoga.url));
    await page.auth.login('ada@example.test', 'lovelace');
    const access = await page.auth.getAccessToken();
    await page.auth.logout();
    expect(yoga.seen.at(-1)).toEqual({ operation: 'signOut', variables: {}, authorization: `Bearer ${access}` });
    expect(page.errors).toEqual([]);
    await expect(yoga.service.refresh(yoga.service.refreshTokens[0])).rejects.toThrow('Invalid refresh token');
  });

  it('a logout answering an object ({ ok }) resolves, and a refusal of the refresh token ends the session once', async () => {
    const { clock, yoga, open } = await browser();
    const transport = createGraphQLTransport({
      uri: yoga.url,
      refreshTokenIn: 'header',
      documents: {
        refresh: 'mutation { refreshToken: refreshSession { accessToken refreshToken } }',
        logout: 'mutation { logout: endSession { ok } }',
      },
    });
    const page = open(transport);
    await page.auth.login('ada@example.test', 'lovelace');
    yoga.service.revokeAll();
    await clock.advance(15 * MINUTE);
    expect(page.ended).toEqual([expect.objectContaining({ reason: 'rejected', message: 'Invalid refresh token' })]);
    await clock.advance(60 * MINUTE);
    expect(yoga.seen.filter((each) => each.operation === 'refreshSession')).toHaveLength(1);
    const other = open(transport);
    await other.auth.login('ada@example.test', 'lovelace');
    await other.auth.logout();
    expect(yoga.seen.at(-1)).toMatchObject({ operation: 'endSession', variables: {} });
    expect(other.errors).toEqual([]);
  });
});

describe('a transport of your own for a GraphQL server that keeps the refresh token in its cookie', () => {
  it('a first visit is no-session; after a login a reload restores the session with one refresh; logout clears it', async () => {
    const { yoga, open, jar } = await browser();
    const first = open(graphqlCookieTransport(yoga.url));
    await settled(first.auth);
    expect(first.auth.getState()).toEqual({ status: 'unauthenticated', user: null });
    expect(first.refreshes).toEqual([expect.objectContaining({ outcome: 'no-session' })]);
    expect(first.ended).toEqual([]);

    await first.auth.login('ada@example.test', 'lovelace');
    expect(jar.get(COOKIE)).toBe(yoga.service.refreshTokens[0]);
    first.auth.dispose();
    const reloaded = open(graphqlCookieTransport(yoga.url));
    await settled(reloaded.auth);
    expect(reloaded.auth.getState()).toMatchObject({ status: 'authenticated', user: { id: '7', role: 'admin' } });
    expect(yoga.seen.filter((each) => each.operation === 'renewSession')).toHaveLength(2);
    expect(yoga.seen.every((each) => !JSON.stringify(each.variables ?? {}).includes('refresh'))).toBe(true);
    expect(JSON.stringify(reloaded.auth.getState())).not.toContain(jar.get(COOKIE));

    await reloaded.auth.logout();
    expect(jar.get(COOKIE)).toBeUndefined();
    expect(reloaded.errors).toEqual([]);
  });

  it('a refusal mid-session ends the session as rejected, once', async () => {
    const { clock, yoga, open } = await browser();
    const page = open(graphqlCookieTransport(yoga.url));
    await settled(page.auth);
    await page.auth.login('ada@example.test', 'lovelace');
    yoga.service.revokeAll();
    await clock.advance(15 * MINUTE);
    expect(page.ended).toEqual([expect.objectContaining({ reason: 'rejected', message: 'Invalid refresh token' })]);
    expect(yoga.seen.filter((each) => each.operation === 'renewSession')).toHaveLength(2);
  });
});
