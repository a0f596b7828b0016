import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { toNodeHandler } from '../../src/server/toNodeHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { SECRET } from '../helpers/tokenHandler';

const COOKIE_NAME = 'token-pair';

const cleanups = useCleanups();
const EIGHT_MB = 8 * 1024 * 1024;

async function handler() {
  const upstream = await startDemoServer(cleanups);
  // A door the upstream does not have: a well-formed sign-in through it reaches the upstream and is refused there.
  const signIns = { register: 'mutation ($email: String!) { register(email: $email) { accessToken refreshToken } }' };
  return {
    upstream,
    handler: createTokenHandler({ uri: upstream.url, secret: SECRET, cookie: { secure: false }, signIns }),
  };
}

describe('hostile input at the token handler', () => {
  it('an 8 MB login body through toNodeHandler gets 413 before it is read whole, and nothing reaches the upstream', async () => {
    const { upstream, handler: route } = await handler();
    const server = createServer(toNodeHandler(route));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { 'content-type': 'application/json', 'x-token-handler': '1', origin };
    // Declared length, and a stream with none (chunked): both stop at the bound.
    const declared = await fetch(`${origin}/auth/login`, { method: 'POST', headers, body: 'x'.repeat(EIGHT_MB) });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= EIGHT_MB) return controller.close();
        sent += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(120));
      },
    });
    const chunked = await fetch(`${origin}/auth/login`, {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    if (chunked instanceof Response) expect(chunked.status).toBe(413);
    // The server stopped taking the body in long before its end.
    expect(sent).toBeLessThan(EIGHT_MB);
    expect(upstream.stats.loginCalls).toBe(0);
  });

  it('the Fetch route answers 413 from Content-Length, and from the bytes read, without reading the rest', async () => {
    const { upstream, handler: route } = await handler();
    const origin = 'http://127.0.0.1:3000';
    const headers = { 'content-type': 'application/json', 'x-token-handler': '1', origin };
    const declared = await route(
      new Request(`${origin}/auth/login`, { method: 'POST', headers, body: 'x'.repeat(EIGHT_MB) }),
    );
    expect(declared.status).toBe(413);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(4096).fill(120));
        if (pulled === 2048) controller.close();
      },
    });
    const streamed = await route(
      new Request(`${origin}/auth/login`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(20);
    expect(upstream.stats.loginCalls).toBe(0);
  });

  it.each([
    ['fields that are not strings', { email: ['admin@demo.test'], password: { toString: 'x' } }, 400],
    [
      'prototype keys',
      JSON.parse('{"__proto__": {"email": "admin@demo.test"}, "constructor": {"prototype": {"password": "x"}}}'),
      400,
    ],
  ])('%s get 400 and reach nothing upstream', async (_name, body, status) => {
    const { upstream, handler: route } = await handler();
    const origin = 'http://127.0.0.1:3000';
    const answer = await route(
      new Request(`${origin}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-token-handler': '1', origin },
        body: JSON.stringify(body),
      }),
    );
    expect(answer.status).toBe(status);
    expect(upstream.stats.loginCalls).toBe(0);
    expect(({} as Record<string, unknown>)['email']).toBeUndefined();
  });
});

describe('hostile cookies and arbitrary requests at the token handler', () => {
  const origin = 'http://127.0.0.1:3000';
  const headers = (cookie: string) => ({ 'content-type': 'application/json', 'x-token-handler': '1', origin, cookie });

  it.each([
    ['oversize', (valid: string) => `${COOKIE_NAME}=${valid}${'A'.repeat(5000)}`],
    ['duplicated (a valid one first)', (valid: string) => `${COOKIE_NAME}=${valid}; ${COOKIE_NAME}=garbage`],
    ['duplicated (a valid one last)', (valid: string) => `${COOKIE_NAME}=garbage; ${COOKIE_NAME}=${valid}`],
    ['malformed', () => `${COOKIE_NAME}=v1.%%%.@@@`],
    ['truncated', (valid: string) => `${COOKIE_NAME}=${valid.slice(0, -10)}`],
  ])('a cookie %s gets a clean 401 and spends nothing upstream', async (_name, make) => {
    const { upstream, handler: route } = await handler();
    const login = await route(
      new Request(`${origin}/auth/login`, {
        method: 'POST',
        headers: headers(''),
        body: JSON.stringify({ email: 'admin@demo.test', password: 'admin-pass' }),
      }),
    );
    const valid = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=').slice(1).join('=');
    upstream.faults.delayMs = {};
    const before = { ...upstream.stats };
    for (const route_ of ['refresh', 'logout']) {
      const answer = await route(
        new Request(`${origin}/auth/${route_}`, { method: 'POST', headers: headers(make(valid)), body: '{}' }),
      );
      expect(answer.status, route_).toBe(route_ === 'refresh' ? 401 : 200);
      if (route_ === 'refresh') expect((await answer.json()).error.code).toBe('SESSION_INVALID');
    }
    expect(upstream.stats.refreshCalls).toBe(before.refreshCalls);
    expect(upstream.stats.logoutCalls).toBe(before.logoutCalls);
  });

  it('arbitrary requests: no 5xx, no token in any answer, and nothing upstream for a request the guard refuses', async () => {
    const { upstream, handler: route } = await handler();
    const request = fc.record({
      method: fc.constantFrom('POST', 'GET', 'PUT', 'OPTIONS', 'DELETE'),
      path: fc.oneof(
        fc.constantFrom(
          '/auth/login',
          '/auth/sign-in',
          '/auth/refresh',
          '/auth/logout',
          '/auth/',
          '/auth/login/x',
          '/elsewhere',
        ),
        fc.string().map((s) => `/auth/${encodeURIComponent(s)}`),
      ),
      origin: fc.option(fc.constantFrom(origin, 'https://evil.example', 'null', ''), { nil: undefined }),
      marker: fc.boolean(),
      contentType: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data', ''),
      cookie: fc.option(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `${COOKIE_NAME}=${s}`),
          fc.constant(`${COOKIE_NAME}=v1.AAAA.BBBB`),
        ),
        { nil: undefined },
      ),
      body: fc.oneof(
        fc.string(),
        fc.json(),
        fc
          .record({
            email: fc.anything(),
            password: fc.anything(),
            accessToken: fc.anything(),
            name: fc.oneof(fc.constantFrom('register', 'resetPassword', '__proto__'), fc.anything()),
            variables: fc.oneof(fc.record({ email: fc.string() }), fc.anything()),
            query: fc.constantFrom(undefined, 'mutation { logout(refreshToken: "x") { success } }'),
            __proto__: fc.anything(),
          })
          .map((value) => JSON.stringify(value) ?? ''),
      ),
    });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        runs += 1;
        const before = upstream.stats.requests;
        const init: RequestInit = {
          method: r.method,
          headers: {
            ...(r.origin !== undefined && { origin: r.origin }),
            ...(r.marker && { 'x-token-handler': '1' }),
            ...(r.contentType && { 'content-type': r.contentType }),
            ...(r.cookie !== undefined && { cookie: r.cookie }),
          },
          ...(r.method !== 'GET' && { body: r.body }),
        };
        let answer: Response;
        try {
          answer = await route(new Request(`${origin}${r.path}`, init));
        } catch (error) {
          throw new Error(`the handler threw: ${String(error)}`, { cause: error });
        }
        const text = await answer.text();
        expect(answer.status).toBeLessThan(500);
        expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
        for (const line of answer.headers.getSetCookie()) expect(line).toMatch(new RegExp(`^${COOKIE_NAME}=;`));
        // Only a well-formed login or sign-in through a door reaches the upstream (and is refused there, 401):
        // nothing else does, and no document the page sent is run.
        if (answer.status !== 401 || !/\/(login|sign-in)$/.test(r.path)) expect(upstream.stats.requests).toBe(before);
      }),
      { numRuns: 300, seed: 20_261_124 },
    );
    console.info(
      `hostile requests: ${runs} run, ${upstream.stats.requests} well-formed logins and sign-ins reached the upstream (refused), no 5xx, no token`,
    );
  });
});
