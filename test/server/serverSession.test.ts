import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { createElement, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServerSession } from '../../src/server/createTokenHandler';
import { createMemoryRotationCache } from '../../src/server/RotationCache';
import { useCleanups } from '../helpers/overHttp';
import { COOKIE, openCookie, parseSetCookie, startTokenHandler, type TokenHandlerRig } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const ME = gql`
  query Me {
    me {
      id
      email
    }
  }
`;
const MINUTE = 60_000;

/** A handler in front of a demo upstream, its clock under the test's hand, and the admin signed in. */
async function signedIn() {
  const clock = { offset: 0 };
  const rig = await startTokenHandler(cleanups, { handler: { now: () => Date.now() + clock.offset } });
  const login = await rig.post('login', { email: 'admin@demo.test', password: 'admin-pass' });
  expect(login.status).toBe(200);
  return { rig, clock, cookie: rig.jar.header()!, accessToken: login.body.accessToken as string };
}

function Me() {
  const { data, error } = useQuery<{ me: { id: string; email: string } }>(ME);
  return createElement('p', { id: 'me' }, error ? `error: ${error.message}` : (data?.me.email ?? 'loading'));
}

/** One server render of one request: its session, a per-request client, the query, then the HTML. */
async function render(
  rig: TokenHandlerRig,
  cookie: string | undefined,
): Promise<{ session: ServerSession; html: string; error?: string }> {
  const session = await rig.handler.getServerSession({ headers: new Headers(cookie ? { cookie } : {}) });
  const client = new ApolloClient({
    ssrMode: true,
    link: new HttpLink({
      uri: rig.upstream.url,
      headers: session.accessToken ? { authorization: `Bearer ${session.accessToken}` } : {},
    }),
    cache: new InMemoryCache(),
  });
  let error: string | undefined;
  try {
    await client.query({ query: ME });
  } catch (failure) {
    // The page renders signed out.
    error = (failure as Error).message;
  }
  const html = renderToString(
    createElement(StrictMode, null, createElement(ApolloProvider, { client, children: createElement(Me) })),
  );
  client.stop();
  return { session, html, error };
}

describe('getServerSession', () => {
  it('hands out no access token for a cookie whose logout is in flight, and clears that cookie', async () => {
    // A rotation cache that is slow to keep (a distant Redis): the logout is in flight while it writes.
    const memory = createMemoryRotationCache();
    let writing!: () => void;
    const keeping = new Promise<void>((resolve) => (writing = resolve));
    const cache = {
      ...memory,
      put: async (...args: Parameters<typeof memory.put>) => (
        writing(),
        await new Promise((r) => setTimeout(r, 200)),
        memory.put(...args)
      ),
    };
    const rig = await startTokenHandler(cleanups, { handler: { cache } });
    const login = await rig.post('login', { email: 'admin@demo.test', password: 'admin-pass' });
    const cookie = rig.jar.header()!;
    expect(login.status).toBe(200);
    const logout = rig.post('logout', {}, { cookie });
    await keeping;
    // The reload's server render, while the logout is still under way.
    const racing = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });
    expect(racing.accessToken).toBeNull();
    expect(racing.setCookie.some((line) => line.startsWith(`${COOKIE}=;`) && line.includes('Max-Age=0'))).toBe(true);
    expect((await logout).status).toBe(200);
    // Once the logout is over, the rotation cache says so, for any instance sharing it.
    const after = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });
    expect(after.accessToken).toBeNull();
  });

  it('renews an expired token once for ten concurrent renders of one browser, and every page shows the user', async () => {
    const { rig, clock, cookie, accessToken } = await signedIn();
    rig.upstream.expireAllAccessTokens();
    clock.offset = 16 * MINUTE;

    const pages = await Promise.all(Array.from({ length: 10 }, () => render(rig, cookie)));

    expect(rig.upstream.stats.refreshCalls).toBe(1);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(rig.upstream.stats.tokenExpired).toBe(0);
    for (const { html, error } of pages) {
      expect(error).toBeUndefined();
      expect(html).toContain('<p id="me">admin@demo.test</p>');
    }
    const tokens = new Set(pages.map(({ session }) => session.accessToken));
    expect(tokens.size).toBe(1);
    expect(tokens.has(accessToken)).toBe(false);
    expect(pages.every(({ session }) => session.user?.email === 'admin@demo.test' && session.error === undefined)).toBe(
      true,
    );

    const newest = rig.upstream.stats.refreshTokensIssued.at(-1);
    const cookies = await Promise.all(
      pages.map(async ({ session }) => {
        expect(session.setCookie).toHaveLength(1);
        const { name, attributes } = parseSetCookie(session.setCookie[0]!);
        expect(name).toBe(COOKIE);
        expect(attributes).toMatchObject({ httponly: '', secure: '', samesite: 'Strict', path: '/' });
        return openCookie(session.setCookie[0]!);
      }),
    );
    expect(new Set(cookies.map((held) => `${held?.r}|${held?.a}`))).toEqual(new Set([`${newest}|${[...tokens][0]}`]));
  });

  it('yields no token and no cookie without a cookie', async () => {
    const { rig } = await signedIn();
    const { session, html, error } = await render(rig, undefined);

    expect(session).toEqual({ accessToken: null, user: null, setCookie: [] });
    expect(error).toMatch(/Authorization/);
    expect(html).not.toContain('admin@demo.test');
  });

  it('yields the cookie’s fresh token without a cookie or an upstream call', async () => {
    const { rig, cookie, accessToken } = await signedIn();
    const { session, html } = await render(rig, cookie);

    expect(session.accessToken).toBe(accessToken);
    expect(session.user).toEqual({ id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' });
    expect(session.setCookie).toEqual([]);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
    expect(html).toContain('admin@demo.test');
  });

  it('yields no token and a clearing cookie when the upstream revoked the session', async () => {
    const { rig, clock, cookie } = await signedIn();
    rig.upstream.revokeAllSessions();
    clock.offset = 16 * MINUTE;
    const session = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });

    expect(session.accessToken).toBeNull();
    expect(session.user).toBeNull();
    expect(session.error).toBeUndefined();
    expect(session.setCookie).toHaveLength(1);
    expect(parseSetCookie(session.setCookie[0]!).attributes['max-age']).toBe('0');
  });

  it('yields no token and a clearing cookie right after the browser logged out', async () => {
    const { rig, cookie } = await signedIn();
    expect((await rig.post('logout', {})).status).toBe(200);
    const session = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });

    expect(session.accessToken).toBeNull();
    expect(session.setCookie).toHaveLength(1);
    expect(parseSetCookie(session.setCookie[0]!).attributes['max-age']).toBe('0');
  });

  it('yields no token, UPSTREAM_UNAVAILABLE and keeps the cookie while the upstream is down', async () => {
    const { rig, clock, cookie } = await signedIn();
    clock.offset = 16 * MINUTE;
    await rig.upstream.close();
    const session = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });

    expect(session.accessToken).toBeNull();
    expect(session.error?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(session.setCookie).toEqual([]);
  });
});
