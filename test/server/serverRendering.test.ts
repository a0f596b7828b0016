import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { describe, expect, it, vi } from 'vitest';
import { asSignedOut } from '../../src/server/asSignedOut';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { getServerState } from '../../src/server/getServerState';
import { makeJwt } from '../helpers/jwt';
import { useCleanups } from '../helpers/overHttp';
import { SECRET, startTokenHandler } from '../helpers/tokenHandler';

const cleanups = useCleanups();

describe('asSignedOut', () => {
  const graphQLError = (code: string) =>
    new CombinedGraphQLErrors({ errors: [{ message: 'Session revoked', extensions: { code } }] });

  it('turns an answer that says "not signed in" into null', () => {
    expect(asSignedOut(graphQLError('UNAUTHENTICATED'))).toBeNull();
    expect(asSignedOut(graphQLError('TOKEN_EXPIRED'))).toBeNull();
    const unauthorized = new ServerError('401', {
      response: new Response('', { status: 401 }),
      bodyText: '{}',
      result: {},
    } as never);
    expect(asSignedOut(unauthorized)).toBeNull();
  });

  it('throws any other failure again', () => {
    const forbidden = graphQLError('FORBIDDEN');
    expect(() => asSignedOut(forbidden)).toThrow(forbidden);
    const outage = new TypeError('fetch failed');
    expect(() => asSignedOut(outage)).toThrow(outage);
  });
});

describe('getServerState', () => {
  it('is the signed-in state of the token a render used: the user from its claims, plain JSON', () => {
    const token = makeJwt({ sub: 'u_1', email: 'a@b.test', role: 'ADMIN', iat: 1, exp: 901 });
    const state = getServerState(token);
    expect(state).toEqual({
      status: 'authenticated',
      user: {
        id: 'u_1',
        email: 'a@b.test',
        role: 'ADMIN',
        roles: ['ADMIN'],
        claims: { sub: 'u_1', email: 'a@b.test', role: 'ADMIN', iat: 1, exp: 901 },
      },
    });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(getServerState(makeJwt({ sub: 7, perms: { role: 'OWNER' } }), 'perms').user?.role).toBeUndefined();
    expect(getServerState(makeJwt({ sub: 7, scope: 'OWNER' }), 'scope').user).toMatchObject({ id: '7', role: 'OWNER' });
  });

  it('reads the user as the page’s session does, by its readUser', () => {
    const token = makeJwt({ userId: 42, roles: ['STAFF', 'ADMIN'], iat: 1, exp: 901 });
    const readUser = (claims: Record<string, unknown>) => ({
      id: claims['userId'] as number,
      role: claims['roles'] as string[],
    });
    expect(getServerState(token, { readUser }).user).toMatchObject({
      id: '42',
      role: 'STAFF',
      roles: ['STAFF', 'ADMIN'],
    });
  });

  it('is signed out without a token, or with one that is not a JWT', () => {
    expect(getServerState(null)).toEqual({ status: 'unauthenticated', user: null });
    expect(getServerState('')).toEqual({ status: 'unauthenticated', user: null });
    expect(getServerState('not-a-jwt')).toEqual({ status: 'unauthenticated', user: null });
  });
});

describe('a handler built without its secret or URL (next build loads route modules without them)', () => {
  it('loads, then answers every request 500 MISCONFIGURED naming the option, logged once', async () => {
    const onError = vi.fn();
    const env: Record<string, string | undefined> = {};
    const handler = createTokenHandler({ uri: env['GRAPHQL_URL']!, secret: env['TOKEN_HANDLER_SECRET']!, onError });
    for (let i = 0; i < 2; i++) {
      const answer = await handler(new Request('http://127.0.0.1/auth/login', { method: 'POST', body: '{}' }));
      expect(answer.status).toBe(500);
      const { error } = await answer.json();
      expect(error.code).toBe('MISCONFIGURED');
      expect(error.message).toMatch(
        /no `uri` and no `secret`: set the upstream GraphQL URL \(or `upstream`, a transport of your own\) and a secret of at least 32 bytes/,
      );
    }
    await expect(handler.getServerSession({ headers: new Headers() })).rejects.toThrow(/no `uri` and no `secret`/);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('still throws at once for a secret of the wrong shape', () => {
    expect(() => createTokenHandler({ uri: 'http://127.0.0.1:1/graphql', secret: 'short' })).toThrow(
      /at least 32 bytes/,
    );
  });
});

describe('handlers of one process share their rotations and logouts, whichever copy of the module made them', () => {
  // Next.js loads proxy.ts and the route handlers as separate module graphs: two copies of createTokenHandler.
  async function twoCopies() {
    const rig = await startTokenHandler(cleanups);
    vi.resetModules();
    const copy =
      (await import('../../src/server/createTokenHandler')) as typeof import('../../src/server/createTokenHandler');
    expect(copy.createTokenHandler).not.toBe(createTokenHandler);
    const login = await rig.post('login', { email: 'admin@demo.test', password: 'admin-pass' });
    expect(login.status).toBe(200);
    return { rig, copy, cookie: rig.jar.header()!, accessToken: login.body.accessToken as string };
  }

  it('one rotation for two tabs refreshing through the two copies at once', async () => {
    const { rig, copy, cookie, accessToken } = await twoCopies();
    const other = copy.createTokenHandler({ uri: rig.upstream.url, secret: SECRET });
    rig.upstream.resetStats();
    // Each tab presents the token it holds: it wants a new one.
    const refresh = () =>
      new Request(`${rig.origin}/auth/refresh`, {
        method: 'POST',
        headers: { cookie, origin: rig.origin, 'x-token-handler': '1' },
        body: JSON.stringify({ accessToken }),
      });
    const [first, second] = await Promise.all([rig.handler(refresh()), other(refresh())]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const [a, b] = [await first.json(), await second.json()];
    expect(a.accessToken).not.toBe(accessToken);
    expect(b.accessToken).toBe(a.accessToken);
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  });

  it('no access token for a render through one copy while a logout is in flight through the other', async () => {
    const { rig, copy, cookie } = await twoCopies();
    let sent!: () => void;
    const logoutSent = new Promise<void>((resolve) => (sent = resolve));
    const slowLogout: typeof fetch = async (input, init) => {
      if (String(init?.body).includes('logout')) {
        sent();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return fetch(input, init);
    };
    const routes = copy.createTokenHandler({ uri: rig.upstream.url, secret: SECRET, fetch: slowLogout });
    const logout = routes(
      new Request(`${rig.origin}/auth/logout`, {
        method: 'POST',
        headers: { cookie, origin: rig.origin, 'x-token-handler': '1' },
        body: '{}',
      }),
    );
    await logoutSent;
    const racing = await rig.handler.getServerSession({ headers: new Headers({ cookie }) });
    expect(racing.accessToken).toBeNull();
    expect((await logout).status).toBe(200);
    expect((await rig.handler.getServerSession({ headers: new Headers({ cookie }) })).accessToken).toBeNull();
  });
});
