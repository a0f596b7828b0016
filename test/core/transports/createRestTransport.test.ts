import { describe, expect, it } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  COOKIE_STAND_IN,
  createRestTransport,
  isRestRefusal,
  SessionEndedError,
  type RestTransportOptions,
} from '../../../src';
import { makePair } from '../../helpers/jwt';

const API = 'http://api.test';
const PAIR = makePair('p1');
const signal = new AbortController().signal;

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly credentials: RequestCredentials | undefined;
}

/** A transport whose every call is answered `status` with `body` (JSON, or a string as it is); `sent` records the requests. */
function answered(status: number, body?: unknown, options: Partial<RestTransportOptions> = {}) {
  const sent: Sent[] = [];
  const transport = createRestTransport({
    login: `${API}/login`,
    refresh: `${API}/refresh`,
    logout: `${API}/logout`,
    ...options,
    fetch: async (url, init = {}) => {
      sent.push({
        url: String(url),
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
        credentials: init.credentials,
      });
      const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
      return new Response(status === 204 ? null : text, { status });
    },
  });
  return { transport, sent };
}

/** What a refresh of `token` came to: its answer, or what it threw. */
async function refreshWith(status: number, body?: unknown, options: Partial<RestTransportOptions> = {}, token = 'r1') {
  const { transport } = answered(status, body, options);
  return transport.refresh(token, signal).catch((error: unknown) => error);
}

describe('createRestTransport: where the answers hold the tokens', () => {
  it.each([
    ['{ accessToken, refreshToken }', { accessToken: PAIR.accessToken, refreshToken: 'r2' }],
    ['{ access_token, refresh_token }', { access_token: PAIR.accessToken, refresh_token: 'r2' }],
    ['{ token, refreshToken }', { token: PAIR.accessToken, refreshToken: 'r2' }],
    ['{ data: { accessToken, refreshToken } }', { data: { accessToken: PAIR.accessToken, refreshToken: 'r2' } }],
    ['{ data: { access_token, refresh_token } }', { data: { access_token: PAIR.accessToken, refresh_token: 'r2' } }],
  ])('reads %s by default', async (_shape, body) => {
    expect(await refreshWith(200, body)).toEqual({ accessToken: PAIR.accessToken, refreshToken: 'r2' });
  });

  it('reads the tokens and the user at the dotted paths of `answer`', async () => {
    const body = { result: { session: { jwt: PAIR.accessToken, renewal: 'r2' }, account: { id: 7 } } };
    const answer = {
      accessToken: 'result.session.jwt',
      refreshToken: 'result.session.renewal',
      user: 'result.account',
    };
    const { transport } = answered(200, body, { answer });
    await expect(transport.login('ada@example.test', 'pw', signal)).resolves.toEqual({
      accessToken: PAIR.accessToken,
      refreshToken: 'r2',
      user: { id: 7 },
    });
  });

  it('a refresh answer without a refresh token keeps none (the session keeps its own)', async () => {
    expect(await refreshWith(200, { accessToken: PAIR.accessToken })).toEqual({
      accessToken: PAIR.accessToken,
      refreshToken: undefined,
    });
  });

  it('a login answer without an access token names the paths it read and the option to set', async () => {
    const { transport } = answered(200, { data: { jwt: PAIR.accessToken } });
    const error = await transport.login('ada@example.test', 'pw', signal).catch((thrown: unknown) => thrown);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'login answered HTTP 200 without an access token at accessToken, access_token, token, data.accessToken, ' +
        'data.access_token, data.token: set answer.accessToken to the dotted path where your server puts it.',
    );
  });

  it("a login answer without a refresh token names answer.refreshToken and refreshTokenIn: 'cookie'", async () => {
    const { transport } = answered(200, { accessToken: PAIR.accessToken });
    const error = await transport.login('ada@example.test', 'pw', signal).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain('without a refresh token at refreshToken, refresh_token');
    expect((error as Error).message).toContain(
      "set answer.refreshToken to the dotted path where your server puts it, or refreshTokenIn: 'cookie'",
    );
  });

  it('a refresh answered 2xx without an access token ends the session: the server spent the token', async () => {
    const error = await refreshWith(200, { status: 'done' });
    expect(SessionEndedError.is(error) && error.reason).toBe('rejected');
    expect(AuthRequestError.is((error as Error).cause)).toBe(true);
  });
});

describe('createRestTransport: refusals and outages', () => {
  it.each([
    ['401 with a message and a code', 401, { message: 'Token revoked', code: 'REVOKED' }, 'Token revoked', 'REVOKED'],
    ['403 with no body', 403, '', 'The service refused the session (HTTP 403).', undefined],
    [
      '500 { error: "Invalid refresh token" }',
      500,
      { error: 'Invalid refresh token' },
      'Invalid refresh token',
      undefined,
    ],
    [
      '200 { ok: false, message }',
      200,
      { ok: false, message: 'Refresh token revoked' },
      'Refresh token revoked',
      undefined,
    ],
    ['200 { success: false }', 200, { success: false }, 'The service refused the session.', undefined],
    [
      '400 { error: { message, code } }',
      400,
      { error: { message: 'jwt expired', code: 'E_JWT' } },
      'jwt expired',
      'E_JWT',
    ],
    [
      'OAuth 400 { error, error_description }',
      400,
      { error: 'invalid_grant', error_description: 'Refresh token expired' },
      'Refresh token expired',
      undefined,
    ],
    ['a numeric code', 401, { message: 'No', code: 4011 }, 'No', '4011'],
  ])('%s is a refusal, in the server words and with its code', async (_name, status, body, message, code) => {
    const error = await refreshWith(status, body);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ message, code, operation: 'refresh', uncertain: false });
  });

  it.each([
    [
      '500 { error: "connect ECONNREFUSED" }',
      500,
      { error: 'connect ECONNREFUSED 127.0.0.1:5432' },
      'refresh failed with HTTP 500 (connect ECONNREFUSED 127.0.0.1:5432).',
    ],
    ['503 without a body', 503, '', 'refresh failed with HTTP 503.'],
    [
      '429 that speaks of a token',
      429,
      { message: 'Too many token requests: invalid token rate' },
      'refresh failed with HTTP 429 (Too many token requests: invalid token rate).',
    ],
    [
      '400 without words of a refusal (a missing cookie)',
      400,
      { message: 'Refresh token missing' },
      'refresh failed with HTTP 400 (Refresh token missing).',
    ],
    [
      '200 that is not JSON (a page served for every path)',
      200,
      '<!doctype html>',
      'refresh answered HTTP 200 with a body that is not JSON.',
    ],
  ])('%s is an outage: the session is kept, and the message says what came', async (_name, status, body, message) => {
    const error = await refreshWith(status, body);
    expect(AuthRequestError.is(error) && !AuthRejectedError.is(error)).toBe(true);
    expect((error as Error).message).toBe(message);
  });

  it('a failure on the network says the server cannot be reached, and where', async () => {
    const transport = createRestTransport({
      login: `${API}/login`,
      refresh: `${API}/refresh`,
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })),
    });
    const error = await transport.refresh('r1', signal).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'AuthRequestError', operation: 'refresh', status: undefined });
    expect((error as Error).message).toBe(
      'refresh failed on the network: http://api.test/refresh cannot be reached (fetch failed: connect ECONNREFUSED).',
    );
  });

  it('a status listed in refusal.statuses is a refusal whatever its body', async () => {
    const error = await refreshWith(400, { message: 'Refresh token missing' }, { refusal: { statuses: [400, 401] } });
    expect(AuthRejectedError.is(error) && error.message).toBe('Refresh token missing');
    // And one no longer listed is not.
    expect(AuthRejectedError.is(await refreshWith(403, '', { refusal: { statuses: [401] } }))).toBe(false);
  });

  it('refusal.when replaces the default, is asked whatever the status, and may say maybe', async () => {
    const when = ({ body }: { body: Readonly<Record<string, unknown>> }) =>
      body['status'] === 'revoked' ? true : body['status'] === 'unsure' ? ('maybe' as const) : false;
    expect(await refreshWith(502, { status: 'revoked' }, { refusal: { when } })).toMatchObject({
      name: 'AuthRejectedError',
      uncertain: false,
    });
    expect(await refreshWith(200, { status: 'unsure' }, { refusal: { when } })).toMatchObject({
      name: 'AuthRejectedError',
      uncertain: true,
    });
    // The default's refusal is one no longer.
    expect(AuthRejectedError.is(await refreshWith(200, { ok: false }, { refusal: { when } }))).toBe(false);
  });

  it('refusal.message and refusal.code read the server words and code where it puts them', async () => {
    const body = { failure: { text: 'Session revoked by an admin', id: 'ADMIN_REVOKED' } };
    const error = await refreshWith(401, body, { refusal: { message: 'failure.text', code: 'failure.id' } });
    expect(error).toMatchObject({ message: 'Session revoked by an admin', code: 'ADMIN_REVOKED' });
  });

  it('a login answered 4xx with words is a refusal in those words, whatever the status', async () => {
    const { transport } = answered(400, { message: 'Invalid email or password' });
    const error = await transport.login('ada@example.test', 'wrong', signal).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      name: 'AuthRejectedError',
      message: 'Invalid email or password',
      operation: 'login',
    });
  });
});

describe('isRestRefusal, the default of refusal.when', () => {
  const judge = (status: number, body: Record<string, unknown>, call: 'login' | 'refresh' = 'refresh') =>
    isRestRefusal({ call, status, body, message: (body['message'] ?? body['error']) as string | undefined });
  it.each([
    [200, { ok: false }, 'refresh', true],
    [200, { success: false }, 'refresh', true],
    [200, { error: 'Invalid token' }, 'refresh', true],
    [200, { accessToken: 'a', message: 'Authenticated' }, 'refresh', false],
    [200, { ok: true }, 'refresh', false],
    [500, { error: 'Invalid refresh token' }, 'refresh', true],
    [500, { error: 'jwt malformed' }, 'refresh', true],
    [500, { error: 'Internal Server Error' }, 'refresh', false],
    [503, { message: 'Token service unavailable' }, 'refresh', false],
    [429, { message: 'Unauthorized: slow down' }, 'refresh', false],
    [408, { message: 'Session expired' }, 'refresh', false],
    [400, { message: 'Wrong password' }, 'login', true],
    [400, { message: 'Wrong password' }, 'refresh', false],
    [404, {}, 'login', false],
    [500, { message: 'Wrong password' }, 'login', false],
  ] as const)('HTTP %i %j on %s: %s', (status, body, call, refused) => {
    expect(judge(status, body, call)).toBe(refused);
  });
});

describe("createRestTransport({ refreshTokenIn: 'cookie' })", () => {
  const cookie = { refreshTokenIn: 'cookie' } as const;

  it('owns the session and brings its store; the other modes bring none', () => {
    const { transport } = answered(200, {}, cookie);
    expect(transport.ownsSession).toBe(true);
    expect(transport.store).toBeDefined();
    const { transport: body } = answered(200, {});
    expect([body.ownsSession, body.store]).toEqual([undefined, undefined]);
  });

  it('a refusal of the page load refresh is no-session, the refusal its cause; mid-session it stays a refusal', async () => {
    const atLoad = await refreshWith(401, { message: 'No session' }, cookie, COOKIE_STAND_IN);
    expect(SessionEndedError.is(atLoad) && atLoad.reason).toBe('no-session');
    expect(AuthRejectedError.is((atLoad as Error).cause) && (atLoad as Error & { cause: Error }).cause.message).toBe(
      'No session',
    );
    const midSession = await refreshWith(401, { message: 'Session revoked' }, cookie, PAIR.accessToken);
    expect(AuthRejectedError.is(midSession) && midSession.message).toBe('Session revoked');
  });

  it('a page load refresh answered 2xx without an access token is no-session', async () => {
    const error = await refreshWith(200, { accessToken: null }, cookie, COOKIE_STAND_IN);
    expect(SessionEndedError.is(error) && error.reason).toBe('no-session');
  });

  it('an outage at the page load stays an outage: the cookie is kept for the retry', async () => {
    expect(AuthRequestError.is(await refreshWith(503, '', cookie, COOKIE_STAND_IN))).toBe(true);
  });

  it('reads no refresh token from the answers, even one the server sends', async () => {
    const body = { token: PAIR.accessToken, refreshToken: 'leaked', user: { id: 7 } };
    const { transport } = answered(200, body, cookie);
    await expect(transport.login('ada@example.test', 'pw', signal)).resolves.toEqual({
      accessToken: PAIR.accessToken,
      refreshToken: undefined,
      user: { id: 7 },
    });
  });

  it('sends every call with credentials: include and no token: the cookie is the credential', async () => {
    const { transport, sent } = answered(200, { token: PAIR.accessToken }, cookie);
    await transport.refresh(COOKIE_STAND_IN, signal);
    await transport.logout({ accessToken: PAIR.accessToken, refreshToken: PAIR.accessToken }, signal);
    expect(sent.map(({ url, body, credentials }) => ({ url, body, credentials }))).toEqual([
      { url: `${API}/refresh`, body: undefined, credentials: 'include' },
      { url: `${API}/logout`, body: undefined, credentials: 'include' },
    ]);
    expect(sent[0]!.headers).not.toHaveProperty('authorization');
    expect(sent[1]!.headers).toHaveProperty('authorization', `Bearer ${PAIR.accessToken}`);
  });
});

describe('createRestTransport: the requests it makes', () => {
  const requests = async (options: Partial<RestTransportOptions>) => {
    const { transport, sent } = answered(200, { accessToken: PAIR.accessToken, refreshToken: 'r2' }, options);
    await transport.login('ada@example.test', 'pw', signal);
    await transport.refresh('r1', signal);
    await transport.logout({ accessToken: 'a1', refreshToken: 'r1' }, signal);
    return sent;
  };

  it('by default: POST { email, password }, POST { refreshToken }, and a logout with both tokens', async () => {
    const [login, refresh, logout] = await requests({});
    expect(login).toMatchObject({
      method: 'POST',
      body: { email: 'ada@example.test', password: 'pw' },
      credentials: undefined,
    });
    expect(login!.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });
    expect(refresh).toMatchObject({ url: `${API}/refresh`, method: 'POST', body: { refreshToken: 'r1' } });
    expect(refresh!.headers).not.toHaveProperty('authorization');
    expect(logout).toMatchObject({ body: { refreshToken: 'r1' }, headers: { authorization: 'Bearer a1' } });
  });

  it('refreshTokenField names the field of the body', async () => {
    const [, refresh] = await requests({ refreshTokenField: 'refresh_token' });
    expect(refresh!.body).toEqual({ refresh_token: 'r1' });
  });

  it("refreshTokenIn: 'header' sends it as Authorization: Bearer, or bare in a header of its own", async () => {
    const [, refresh, logout] = await requests({ refreshTokenIn: 'header' });
    expect(refresh).toMatchObject({ body: undefined, headers: { authorization: 'Bearer r1' } });
    expect(logout).toMatchObject({ body: undefined, headers: { authorization: 'Bearer a1' } });
    const [, named] = await requests({ refreshTokenIn: 'header', refreshTokenHeader: 'X-Refresh-Token' });
    expect(named!.headers).toMatchObject({ 'x-refresh-token': 'r1' });
    expect(named!.headers).not.toHaveProperty('authorization');
  });

  it('an endpoint given as parts takes its method, body and headers; a GET sends no body', async () => {
    const [login, refresh] = await requests({
      login: { url: `${API}/signin`, body: ({ email, password }) => ({ username: email, password }) },
      refresh: {
        url: `${API}/token`,
        method: 'GET',
        headers: ({ refreshToken }) => ({ 'x-renew': `${refreshToken}` }),
      },
      headers: { 'x-app': 'shop' },
    });
    expect(login).toMatchObject({ url: `${API}/signin`, body: { username: 'ada@example.test', password: 'pw' } });
    expect(refresh).toMatchObject({ url: `${API}/token`, method: 'GET', body: undefined });
    expect(refresh!.headers).toMatchObject({ 'x-renew': 'r1', 'x-app': 'shop' });
  });

  it('a logout answered 204, true or anything 2xx resolves; without a logout endpoint nothing is sent', async () => {
    const answers: unknown[] = [];
    for (const [status, body] of [
      [204, undefined],
      [200, true],
      [200, 'OK'],
    ] as const) {
      answers.push(await answered(status, body).transport.logout({ accessToken: 'a1', refreshToken: 'r1' }, signal));
    }
    expect(answers).toEqual([undefined, true, undefined]);
    const { transport, sent } = answered(200, {}, { logout: undefined });
    await expect(transport.logout({ accessToken: 'a1', refreshToken: 'r1' }, signal)).resolves.toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('credentials passes to every call', async () => {
    const sent = await requests({ credentials: 'include' });
    expect(sent.map((each) => each.credentials)).toEqual(['include', 'include', 'include']);
  });
});

describe('createRestTransport: mistakes in the options, named', () => {
  it.each([
    [{ refresh: '/refresh' }, 'createRestTransport needs `login`'],
    [{ login: '/login' }, 'createRestTransport needs `refresh`'],
    [
      { login: '/login', refresh: '/refresh', refreshTokenIn: 'query' },
      "takes `refreshTokenIn` 'body', 'header' or 'cookie'; it was given \"query\"",
    ],
    [
      { login: '/login', refresh: '/refresh', refreshTokenIn: 'cookie' },
      "needs `logout` with refreshTokenIn: 'cookie'",
    ],
  ])('%j throws: %s', (options, words) => {
    expect(() => createRestTransport(options as unknown as RestTransportOptions)).toThrow(words);
  });
});

describe('createRestTransport: sign-in doors', () => {
  const doors = { signIns: { register: `${API}/register`, requestCode: { url: `${API}/code`, method: 'PUT' } } };

  it('posts a door’s variables and reads a pair from its answer, as a login’s', async () => {
    const { transport, sent } = answered(200, { data: { ...PAIR, user: { id: 'u_1' } } }, doors);
    expect(transport.signIns).toEqual(['register', 'requestCode']);
    await expect(transport.signIn!('register', { email: 'a@b.test', password: 'pw' }, signal)).resolves.toEqual({
      ...PAIR,
      user: { id: 'u_1' },
    });
    expect(sent[0]).toMatchObject({
      url: `${API}/register`,
      method: 'POST',
      body: { email: 'a@b.test', password: 'pw' },
    });
  });

  it('answers the next step with the body as the server sent it when it holds no access token', async () => {
    const { transport, sent } = answered(200, { sent: true, expiresIn: 600 }, doors);
    await expect(transport.signIn!('requestCode', { email: 'a@b.test' }, signal)).resolves.toEqual({
      next: { sent: true, expiresIn: 600 },
    });
    expect(sent[0]).toMatchObject({ url: `${API}/code`, method: 'PUT' });
  });

  it('refuses in the server’s words, as a login', async () => {
    const { transport } = answered(409, { ok: false, message: 'An account with this e-mail exists' }, doors);
    const error = await transport.signIn!('register', { email: 'a@b.test' }, signal).catch((e: unknown) => e);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect((error as Error).message).toBe('An account with this e-mail exists');
  });
});
