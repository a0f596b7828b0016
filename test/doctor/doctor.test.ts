import { describe, expect, it } from 'vitest';
import { formatReport, main, MAX_REQUESTS, runDoctor, type DoctorReport } from '../../src/doctor';
import { createTestAuthServer, TEST_USERS } from '../../src/testing';
import { useCleanups } from '../helpers/overHttp';
import { SPEC_USERS, startApolloServerSpec, startYogaSpec, type SpecServer } from '../interop/servers';
import type { SpecAuthServiceOptions } from '../interop/servers/specAuthService';

const cleanups = useCleanups();
const [ADMIN] = SPEC_USERS;
const JWT = /eyJ[\w-]{6,}\.[\w-]{6,}\.[\w-]{6,}/;

const status = (report: DoctorReport, id: string) => report.checks.find((check) => check.id === id)?.status;
const detail = (report: DoctorReport, id: string) => report.checks.find((check) => check.id === id)?.detail ?? '';

async function testServer(options: Parameters<typeof createTestAuthServer>[0] = {}) {
  const server = createTestAuthServer(options);
  const url = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  const owner = TEST_USERS[0]!;
  return { server, url, email: owner.email, password: owner.password };
}

async function spec(
  start: (options: SpecAuthServiceOptions) => Promise<SpecServer>,
  options: SpecAuthServiceOptions = {},
) {
  const server = await start(options);
  cleanups.push(() => server.close());
  return server;
}

function expectNoToken(report: DoctorReport) {
  const text = `${formatReport(report)}\n${JSON.stringify(report)}`;
  expect(text).not.toMatch(JWT);
  expect(report.requests).toBeLessThanOrEqual(MAX_REQUESTS);
}

describe("doctor against the package's own test server", () => {
  it('passes every check, leaves no session open, and prints no token', async () => {
    const { server, url, email, password } = await testServer();
    const report = await runDoctor({ uri: url, email, password });
    expect(report.checks.filter((check) => check.status !== 'ok').map((check) => check.id)).toEqual(['token-expired']);
    expect(status(report, 'token-expired')).toBe('not checked');
    expect(detail(report, 'token-expired')).toContain('By hand');
    expect(report).toMatchObject({ ok: true, loggedOut: true });
    expectNoToken(report);
    // Every refresh token it was issued is dead now.
    for (const token of server.stats.refreshTokensIssued) {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($t:String!){refreshToken(token:$t){accessToken}}',
          variables: { t: token },
        }),
      }).then((response) => response.json());
      expect(answer.data?.refreshToken ?? null).toBeNull();
    }
  });

  it("takes documents for servers whose operations have other names, aliased to the contract's", async () => {
    const { url, email, password } = await testServer();
    const documents = {
      login:
        'mutation Login($email:String!,$password:String!){loginWithEmailPassword:loginWithEmailPassword(email:$email,password:$password){accessToken refreshToken user{id email role}}}',
      refresh: 'mutation Renew($token:String!){refreshToken:refreshToken(token:$token){accessToken refreshToken}}',
      logout: 'mutation Out($refreshToken:String!){logout:logout(refreshToken:$refreshToken){success}}',
      me: 'query Who{me:me{id email}}',
    };
    const seen: string[] = [];
    const tracking = ((input: string | URL | Request, init?: RequestInit) => (
      seen.push(JSON.parse(String(init?.body)).query),
      fetch(input, init)
    )) as typeof fetch;
    const report = await runDoctor({ uri: url, email, password, documents, fetch: tracking });
    expect(report.ok).toBe(true);
    expect(new Set(seen)).toEqual(new Set(Object.values(documents)));
  });

  it('checks the sign-in doors first, never sends them, and fails the run on a door it cannot read', async () => {
    const { url, email, password } = await testServer();
    const signIns = {
      register:
        'mutation ($e: String!, $p: String!) { register(email: $e, password: $p) { accessToken refreshToken } }',
      broken: 'mutation { a { accessToken } b { refreshToken } }',
    };
    const seen: string[] = [];
    const tracking = ((input: string | URL | Request, init?: RequestInit) => (
      seen.push(JSON.parse(String(init?.body)).query),
      fetch(input, init)
    )) as typeof fetch;
    const report = await runDoctor({ uri: url, email, password, signIns, fetch: tracking });
    expect(report.checks.slice(0, 2).map((check) => [check.id, check.status])).toEqual([
      ['sign-in-door:register', 'ok'],
      ['sign-in-door:broken', 'fail'],
    ]);
    expect(report.ok).toBe(false);
    expect(seen.filter((query) => Object.values(signIns).includes(query))).toEqual([]);
    expect(formatReport(report)).toContain('signIns.broken must select one top-level field');
  });

  it(
    'checks TOKEN_EXPIRED when the server issues tokens short-lived enough to wait one out',
    { timeout: 20_000 },
    async () => {
      const { url, email, password } = await testServer({ accessTokenTtl: 2 });
      const report = await runDoctor({ uri: url, email, password });
      expect(status(report, 'token-expired')).toBe('ok');
      expect(detail(report, 'token-expired')).toContain('TOKEN_EXPIRED');
      expect(status(report, 'lifetime')).toBe('warn');
      expect(report.loggedOut).toBe(true);
    },
  );

  it('a server that hangs on refresh: the refresh check fails after the timeout, and the doctor does not hang', async () => {
    const { server, url, email, password } = await testServer();
    server.faults.hangRefresh = true;
    const report = await runDoctor({ uri: url, email, password, timeout: 300 });
    expect(status(report, 'refresh')).toBe('fail');
    expect(detail(report, 'refresh')).toContain('did not answer within 300 ms');
    expect(report.ok).toBe(false);
    expectNoToken(report);
  });
});

describe('doctor against spec servers on other frameworks', () => {
  it('Apollo Server 5: reports its INTERNAL_SERVER_ERROR refusals and what the package does with them', async () => {
    const server = await spec(startApolloServerSpec);
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(report.ok).toBe(true);
    expect(detail(report, 'single-use')).toBe(
      'Refused: "Invalid refresh token" with code INTERNAL_SERVER_ERROR (HTTP 200).',
    );
    // Its words say the token was refused: a verdict, though the code says nothing.
    expect(report.advice.join('\n')).toContain(
      'the package ends such a session at once, since those words speak of a refused token',
    );
    expect(report.checks.find(({ id }) => id === 'dead-access')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('"Not authenticated" with code INTERNAL_SERVER_ERROR'),
    });
    expect(detail(report, 'wrong-password')).toContain('"Invalid email or password" with code INTERNAL_SERVER_ERROR');
    expect(report.loggedOut).toBe(true);
    expectNoToken(report);
  });

  it('GraphQL Yoga 5: an uncoded refusal, which the package takes as a verdict at once', async () => {
    const server = await spec(startYogaSpec);
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(report.ok).toBe(true);
    expect(detail(report, 'single-use')).toBe('Refused: "Invalid refresh token" with no code (HTTP 200).');
    expect(report.advice.join('\n')).toContain(
      'no code ("Invalid refresh token"): the package ends such a session at once',
    );
    expect(report.loggedOut).toBe(true);
  });
});

/** A `fetch` through which the server's "Not authenticated" arrives as `refusal` says instead. */
function refusingAs(refusal: { message: string; code?: string }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    const body = JSON.parse(text) as { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
    const [first] = body.errors ?? [];
    if (first?.message !== 'Not authenticated') return new Response(text, response);
    first.message = refusal.message;
    first.extensions = refusal.code ? { code: refusal.code } : {};
    return new Response(JSON.stringify(body), response);
  };
}

describe("doctor says whether a revoked session would be noticed, from how the server refuses a dead session's access token", () => {
  it.each([
    [
      'UNAUTHENTICATED, at once',
      { message: 'Not authenticated', code: 'UNAUTHENTICATED' },
      'ok',
      'the package refreshes once',
    ],
    [
      'no code, but words of a refused session: at once',
      { message: 'Session revoked' },
      'ok',
      'checks it with a refresh at once',
    ],
    ['no code and no such words: within a minute', { message: 'Access denied' }, 'warn', 'noticed within a minute'],
    [
      'a code the package passes on: never',
      { message: 'Access denied', code: 'FORBIDDEN' },
      'fail',
      'would go unnoticed until its next refresh',
    ],
  ] as const)('%s', async (_name, refusal, expected, words) => {
    const server = await spec(startYogaSpec);
    const report = await runDoctor({
      uri: server.url,
      email: ADMIN!.email,
      password: ADMIN!.password,
      fetch: refusingAs(refusal),
    });
    expect(status(report, 'dead-access')).toBe(expected);
    expect(detail(report, 'dead-access')).toContain(words);
    expect(detail(report, 'dead-access')).toContain(refusal.message);
    expect(report.ok).toBe(expected !== 'fail');
    if (expected !== 'ok') expect(report.advice.join('\n')).toContain('isUnauthenticatedError');
  });
});

describe('doctor catches each broken server with its check', () => {
  it('refresh tokens that are not single use', async () => {
    const server = await spec(startApolloServerSpec, { faults: { reusableRefreshTokens: true } });
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(status(report, 'single-use')).toBe('fail');
    expect(report.advice.join('\n')).toContain('not single use: the package stays safe');
    expect(report.loggedOut).toBe(true);
  });

  it('a logout that leaves the access token alive', async () => {
    const server = await spec(startApolloServerSpec, { faults: { logoutKeepsAccess: true } });
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(status(report, 'logout')).toBe('fail');
    expect(detail(report, 'logout')).toContain('access token still worked after logout');
  });

  it('exp in milliseconds', async () => {
    const server = await spec(startApolloServerSpec, { faults: { expInMilliseconds: true } });
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(status(report, 'exp')).toBe('fail');
    expect(detail(report, 'exp')).toContain('milliseconds');
  });

  it('a server clock 10 minutes off', async () => {
    const server = await spec(startApolloServerSpec, { now: () => Date.now() - 10 * 60_000 });
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password });
    expect(status(report, 'clock')).toBe('warn');
    expect(detail(report, 'clock')).toMatch(/^iat is 6\d\d s behind the local clock/);
    expect(report.ok).toBe(true);
  });

  it('a server that hangs on refresh', async () => {
    const server = await spec(startYogaSpec, { faults: { hangRefresh: true } });
    const report = await runDoctor({ uri: server.url, email: ADMIN!.email, password: ADMIN!.password, timeout: 300 });
    expect(status(report, 'refresh')).toBe('fail');
    expect(report.ok).toBe(false);
  });
});

describe('the command line', () => {
  it('--json prints the report, the exit code says whether a check failed, and the password comes from the environment', async () => {
    const { url, email, password } = await testServer();
    const out: string[] = [];
    process.env['APOLLO_LINK_TOKEN_PAIR_PASSWORD'] = password;
    try {
      const code = await main(['doctor', '--uri', url, '--email', email, '--json'], {
        out: (text) => out.push(text),
        err: (text) => out.push(text),
      });
      expect(code).toBe(0);
    } finally {
      delete process.env['APOLLO_LINK_TOKEN_PAIR_PASSWORD'];
    }
    const report = JSON.parse(out.join('\n')) as DoctorReport;
    expect(report.ok).toBe(true);
    expect(out.join('\n')).not.toMatch(JWT);
  });

  it('exits 1 when a check fails, and 2 with usage for missing flags', async () => {
    const { server, url, email, password } = await testServer();
    server.faults.hangRefresh = true;
    const out: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
    expect(await main(['doctor', '--uri', url, '--email', email, '--password', password, '--timeout', '300'], io)).toBe(
      1,
    );
    expect(out.join('\n')).toContain('FAIL  refreshToken answers a new pair');
    expect(await main(['doctor', '--uri', url], io)).toBe(2);
    expect(out.at(-1)).toContain('--uri and --email are required');
  });
});
