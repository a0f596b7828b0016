import { describe, expect, it, vi } from 'vitest';
import { createRequestGuard, TOKEN_HANDLER_HEADER } from '../../src/server/guardRequest';

const ORIGIN = 'https://app.example.com';

function request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? 'POST',
    headers: { origin: ORIGIN, [TOKEN_HANDLER_HEADER]: '1', ...init.headers },
    ...(init.body !== undefined && { body: init.body }),
  });
}

describe('createRequestGuard', () => {
  const report = vi.fn();
  const guard = createRequestGuard({ basePath: '/auth', allowedOrigins: ['https://admin.example.com'], report });
  const statusOf = async (checked: Awaited<ReturnType<typeof guard.check>>) =>
    checked instanceof Response ? checked.status : 'passed';

  it('lets through a POST of a route, from its own origin, with the header and a JSON object', async () => {
    const checked = await guard.check(request('/auth/login', { body: '{"email":"a","password":"b"}' }));
    expect(checked).toEqual({ route: 'login', body: { email: 'a', password: 'b' } });
    expect(await guard.check(request('/auth/refresh'))).toEqual({ route: 'refresh', body: {} });
  });

  it.each([
    ['an unknown route', request('/auth/other'), 404],
    ['a path outside basePath', request('/login'), 404],
    ['a GET', request('/auth/login', { method: 'GET' }), 405],
    [
      'no x-token-handler header',
      new Request(`${ORIGIN}/auth/login`, { method: 'POST', headers: { origin: ORIGIN }, body: '{}' }),
      403,
    ],
    ['another origin', request('/auth/login', { headers: { origin: 'https://evil.example' }, body: '{}' }), 403],
    [
      'no origin',
      new Request(`${ORIGIN}/auth/login`, { method: 'POST', headers: { [TOKEN_HANDLER_HEADER]: '1' }, body: '{}' }),
      403,
    ],
    ['a body over 16 kB', request('/auth/login', { body: 'x'.repeat(16_385) }), 413],
    ['a body that is not JSON', request('/auth/login', { body: 'email=a' }), 400],
    ['a JSON array', request('/auth/login', { body: '[]' }), 400],
    ['JSON null', request('/auth/login', { body: 'null' }), 400],
  ])('answers %s', async (_name, incoming, status) => {
    expect(await statusOf(await guard.check(incoming))).toBe(status);
  });

  it('answers the preflight of an allowed origin, and lets that origin read its answers', async () => {
    const preflight = await guard.check(
      request('/auth/refresh', { method: 'OPTIONS', headers: { origin: 'https://admin.example.com' } }),
    );
    expect(preflight instanceof Response && preflight.status).toBe(204);
    const incoming = request('/auth/refresh', { headers: { origin: 'https://admin.example.com' } });
    expect(await guard.check(incoming)).toEqual({ route: 'refresh', body: {} });
    const shared = guard.share(incoming, new Response('{}'));
    expect(shared.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
    expect(
      guard.share(request('/auth/refresh'), new Response('{}')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('reports a refused origin once, in words that name the options', async () => {
    report.mockClear();
    for (let i = 0; i < 3; i++)
      await guard.check(request('/auth/login', { headers: { origin: 'https://other.example' }, body: '{}' }));
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]![0].message).toMatch(
      /The origin https:\/\/other\.example is not allowed.*`origin`.*`allowedOrigins`.*`trustProxy`/,
    );
  });
});
