import { describe, expect, it } from 'vitest';
import type { CookieSession, HandlerSession } from '../../src/server/HandlerSession';
import { createCookieSealer } from '../../src/server/sealCookie';
import { createSessionCookie } from '../../src/server/sessionCookie';
import { COOKIE, parseSetCookie, SECRET } from '../helpers/tokenHandler';

const NOW = 1_000_000;
const cookie = createSessionCookie({ name: COOKIE, secret: SECRET, secure: true, sameSite: 'Strict', now: () => NOW });
// What every version of the handler seals a cookie with: instances of two versions run side by side in a deploy.
const sealer = createCookieSealer(SECRET, `cookie:${COOKIE}`);

// Each session as the cookie's seal holds it (one letter a field), and as the handler's logic reads it.
const sessions: Array<[string, CookieSession, HandlerSession]> = [
  [
    'a session just begun',
    { r: 'r1', a: 'a1', u: { id: 'u_1', email: 'admin@demo.test', role: 'ADMIN' }, t: NOW, e: NOW + 60_000 },
    {
      refreshToken: 'r1',
      accessToken: 'a1',
      user: { id: 'u_1', email: 'admin@demo.test', role: 'ADMIN' },
      receivedAt: NOW,
      refreshExpiresAt: NOW + 60_000,
    },
  ],
  [
    'a renewed session without a user, its refresh token kept, after uncertain refusals',
    { r: 'r1', a: 'a2', t: NOW, e: NOW + 60_000, n: 2, k: 1 },
    {
      refreshToken: 'r1',
      accessToken: 'a2',
      receivedAt: NOW,
      refreshExpiresAt: NOW + 60_000,
      uncertainRefusals: 2,
      refreshTokenKept: true,
    },
  ],
];

describe('createSessionCookie', () => {
  it.each(sessions)('opens %s from the one-letter fields of its seal', async (_name, sealed, session) => {
    const headers = new Headers({ cookie: `${COOKIE}=${await sealer.seal(sealed)}` });
    const opened = await cookie.open(headers);
    expect(opened?.session).toEqual(session);
  });

  it.each(sessions)('seals %s in the one-letter fields, and no other', async (_name, sealed, session) => {
    const [set] = (await cookie.write(session, new Headers()))!;
    const opened = await sealer.open<Record<string, unknown>>(parseSetCookie(set!).value);
    expect(opened?.value).toStrictEqual(sealed);
  });
});
