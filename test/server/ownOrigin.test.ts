import { describe, expect, it, vi } from 'vitest';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/createTokenHandler';
import { getOwnOrigins } from '../../src/server/getOwnOrigins';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { SECRET } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const ADMIN = JSON.stringify({ email: 'admin@demo.test', password: 'admin-pass' });

/** A handler in front of a real demo server, called as a framework calls its route: with the URL it made. */
async function handlerFor(options: Partial<TokenHandlerOptions> = {}) {
  const upstream = await startDemoServer(cleanups);
  const onError = vi.fn();
  const handler = createTokenHandler({
    uri: upstream.url,
    secret: SECRET,
    cookie: { secure: false },
    onError,
    ...options,
  });
  const login = (url: string, headers: Record<string, string>) =>
    handler(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-token-handler': '1', ...headers },
        body: ADMIN,
      }),
    );
  return { upstream, handler, login, onError };
}

describe('the token handler knows its own origin behind real hosts', () => {
  it('a page opened at 127.0.0.1 whose framework gives the route a localhost URL (next start): signed in, with no option', async () => {
    const { login } = await handlerFor();
    const answer = await login('http://localhost:3000/auth/login', {
      host: '127.0.0.1:3000',
      origin: 'http://127.0.0.1:3000',
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).accessToken).toEqual(expect.any(String));
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:5173'])(
    'a page at %s served by the same host: signed in',
    async (origin) => {
      const { login } = await handlerFor();
      const answer = await login(`${origin}/auth/login`, { host: new URL(origin).host, origin });
      expect(answer.status).toBe(200);
    },
  );

  it('behind a proxy that rewrites the host: refused without trustProxy, naming the origin it saw, the one it expected and the options; signed in with it', async () => {
    const proxied = {
      host: '10.0.0.7:8080',
      'x-forwarded-host': 'app.example.com',
      'x-forwarded-proto': 'https',
      origin: 'https://app.example.com',
    };
    const untrusting = await handlerFor();
    const refused = await untrusting.login('http://10.0.0.7:8080/auth/login', proxied);
    expect(refused.status).toBe(403);
    const { error } = await refused.json();
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('https://app.example.com is not allowed');
    expect(error.message).toContain('http://10.0.0.7:8080');
    expect(error.message).toMatch(/`origin`.*`allowedOrigins`.*`trustProxy`/);
    // Logged once on the server, however often it happens.
    await untrusting.login('http://10.0.0.7:8080/auth/login', proxied);
    expect(untrusting.onError).toHaveBeenCalledTimes(1);
    expect(untrusting.onError.mock.calls[0]![0].message).toBe(error.message);
    expect(untrusting.upstream.stats.loginCalls).toBe(0);

    const trusting = await handlerFor({ trustProxy: true });
    expect((await trusting.login('http://10.0.0.7:8080/auth/login', proxied)).status).toBe(200);
  });

  it('an explicit origin is the only own one: the request host does not count then', async () => {
    const { login } = await handlerFor({ origin: 'https://app.example.com' });
    expect(
      (await login('http://10.0.0.7:8080/auth/login', { host: '10.0.0.7:8080', origin: 'https://app.example.com' }))
        .status,
    ).toBe(200);
    expect(
      (await login('http://localhost:3000/auth/login', { host: 'localhost:3000', origin: 'http://localhost:3000' }))
        .status,
    ).toBe(403);
  });

  it('a foreign page is refused whatever Host it reaches the handler with, and its X-Forwarded-* count only with trustProxy', async () => {
    const { login } = await handlerFor();
    expect(
      (await login('http://localhost:3000/auth/login', { host: 'localhost:3000', origin: 'https://evil.example' }))
        .status,
    ).toBe(403);
    const forged = {
      host: 'localhost:3000',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      origin: 'https://evil.example',
    };
    expect((await login('http://localhost:3000/auth/login', forged)).status).toBe(403);
  });

  it('getOwnOrigins: the URL, the Host header and, trusted, the first X-Forwarded-Host and -Proto', () => {
    const request = new Request('http://localhost:3000/auth/refresh', {
      headers: {
        host: '127.0.0.1:3000',
        'x-forwarded-host': 'app.example.com, proxy.internal',
        'x-forwarded-proto': 'https,http',
      },
    });
    const url = new URL(request.url);
    expect(getOwnOrigins(request, url, {})).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
    expect(getOwnOrigins(request, url, { trustProxy: true })).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'https://app.example.com',
    ]);
    expect(getOwnOrigins(request, url, { origin: ['https://a.example', 'https://b.example'] })).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });
});
