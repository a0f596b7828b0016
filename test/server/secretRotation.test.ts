import { describe, expect, it } from 'vitest';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/createTokenHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { COOKIE, openCookie, parseSetCookie } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const OLD = 'the-old-secret-of-at-least-32-bytes-long!';
const NEW = 'the-new-secret-of-at-least-32-bytes-long!';
const ORIGIN = 'http://127.0.0.1:3000';

/** Calls a handler's route as a page of ORIGIN, with `cookie`; the answer and its session cookie, if it set one. */
async function call(handler: ReturnType<typeof createTokenHandler>, route: string, body: object, cookie?: string) {
  const response = await handler(
    new Request(`${ORIGIN}/auth/${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-token-handler': '1',
        origin: ORIGIN,
        ...(cookie && { cookie: `${COOKIE}=${cookie}` }),
      },
      body: JSON.stringify(body),
    }),
  );
  const set = response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((each) => each.name === COOKIE);
  return { status: response.status, body: await response.json(), cookie: set?.value || undefined };
}

async function handlers() {
  const upstream = await startDemoServer(cleanups);
  const make = (secret: TokenHandlerOptions['secret']) =>
    createTokenHandler({ uri: upstream.url, secret, cookie: { secure: false, name: COOKIE } });
  return { upstream, make };
}

describe('secret rotation: the first secret seals, every one opens', () => {
  it('a cookie sealed with an older secret opens after the rotation and is sealed again with the newest', async () => {
    const { make, upstream } = await handlers();
    const login = await call(make(OLD), 'login', { email: 'admin@demo.test', password: 'admin-pass' });
    const sealed = await openCookie(login.cookie!, OLD);
    expect(sealed?.r).toEqual(expect.any(String));

    const rotated = make([NEW, OLD]);
    const refresh = await call(rotated, 'refresh', {}, login.cookie);
    expect(refresh.status).toBe(200);
    // Still fresh: no upstream refresh, but the cookie comes back sealed with the new secret only.
    expect(upstream.stats.refreshCalls).toBe(0);
    expect(await openCookie(refresh.cookie!, NEW)).toMatchObject({ r: sealed!.r });
    expect(await openCookie(refresh.cookie!, OLD)).toBeUndefined();
    // A cookie sealed with the newest is not sealed again.
    expect((await call(rotated, 'refresh', {}, refresh.cookie)).cookie).toBeUndefined();
  });

  it('a secret taken off the list signs out only the cookies it sealed', async () => {
    const { make } = await handlers();
    const credentials = { email: 'admin@demo.test', password: 'admin-pass' };
    const sealedOld = (await call(make(OLD), 'login', credentials)).cookie!;
    const sealedNew = (await call(make([NEW, OLD]), 'login', credentials)).cookie!;
    const retired = make([NEW]);
    const refused = await call(retired, 'refresh', {}, sealedOld);
    expect(refused).toMatchObject({ status: 401, body: { error: { code: 'SESSION_INVALID' } } });
    expect((await call(retired, 'refresh', {}, sealedNew)).status).toBe(200);
  });

  it.each([
    ['an empty list', [], /list is empty/],
    [
      'a short secret in a list',
      [NEW, 'short'],
      /`secret` number 2 must be a string or Uint8Array of at least 32 bytes/,
    ],
    ['a number', [NEW, 42], /`secret` number 2/],
    ['a short secret', 'short', /`secret` must be a string or Uint8Array of at least 32 bytes/],
  ])('throws at once, synchronously, for %s', (_name, secret, message) => {
    expect(() =>
      createTokenHandler({ uri: 'http://127.0.0.1:1/graphql', secret: secret as TokenHandlerOptions['secret'] }),
    ).toThrow(message);
  });
});

describe('secret rotation across instances, one instance at a time (as the soak rolls it out)', () => {
  // Each step deploys one instance; between steps, the browser's cookie goes through either instance.
  const alternating = async (steps: Array<[TokenHandlerOptions['secret'], TokenHandlerOptions['secret']]>) => {
    const { make } = await handlers();
    let cookie = (await call(make(OLD), 'login', { email: 'admin@demo.test', password: 'admin-pass' })).cookie!;
    const statuses: number[] = [];
    for (const [a, b] of steps) {
      for (const instance of [make(a), make(b), make(a)]) {
        const answer = await call(instance, 'refresh', {}, cookie);
        statuses.push(answer.status);
        cookie = answer.cookie ?? cookie;
      }
    }
    return statuses;
  };

  it('in two steps ([old, new] everywhere, then [new, old]), every request is answered: no session is signed out', async () => {
    const statuses = await alternating([
      [[OLD, NEW], OLD],
      [
        [OLD, NEW],
        [OLD, NEW],
      ],
      [
        [NEW, OLD],
        [OLD, NEW],
      ],
      [
        [NEW, OLD],
        [NEW, OLD],
      ],
    ]);
    expect(statuses).toEqual(Array(12).fill(200));
  });

  it('in one step ([new, old] on one instance while the other still has only the old), the other signs the session out', async () => {
    const statuses = await alternating([[[NEW, OLD], OLD]]);
    expect(statuses).toContain(401);
  });
});
