import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRejectedError, AuthRequestError, createGraphQLTransport } from '../../../src';
import { createFetchStub, rejection } from '../../helpers/fetchStub';
import { makePair } from '../../helpers/jwt';
import { loggedIn, TIME } from '../../helpers/session';

const { T0 } = TIME;
const URI = 'http://auth.test/graphql';

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const error = (message: string, code?: string) => ({ message, ...(code !== undefined && { extensions: { code } }) });

/** Sends one refresh through the default transport and answers it with `answer`; resolves with what it returned or threw. */
async function refreshAnswered(answer: (call: ReturnType<typeof createFetchStub>['calls'][number]) => void) {
  const stub = createFetchStub();
  const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
  const outcome = transport.refresh('r', new AbortController().signal).then(
    (value) => ({ value, error: undefined as unknown }),
    (thrown: unknown) => ({ value: undefined, error: thrown }),
  );
  await vi.advanceTimersByTimeAsync(0);
  expect(stub.of('refreshToken')).toHaveLength(1);
  expect(stub.last('refreshToken').variables).toEqual({ token: 'r' });
  answer(stub.last('refreshToken'));
  return outcome;
}

describe('createGraphQLTransport: which refresh answers say nothing of the token (AuthRequestError)', () => {
  it.each([
    ['GATEWAY_TIMEOUT', { data: null, errors: [error('Upstream timed out', 'GATEWAY_TIMEOUT')] }, 200],
    ['SUBREQUEST_HTTP_ERROR', { data: null, errors: [error('Subgraph failed', 'SUBREQUEST_HTTP_ERROR')] }, 200],
    ['DOWNSTREAM_SERVICE_ERROR', { data: null, errors: [error('Subgraph failed', 'DOWNSTREAM_SERVICE_ERROR')] }, 200],
    ['SERVICE_UNAVAILABLE', { data: null, errors: [error('Down', 'SERVICE_UNAVAILABLE')] }, 200],
    [
      'a failure code in second position, after a non-failure code',
      {
        data: null,
        errors: [error('Refresh token reused', 'INVALID_REFRESH_TOKEN'), error('Down', 'SERVICE_UNAVAILABLE')],
      },
      200,
    ],
    ['an error without a code under HTTP 502', { data: null, errors: [error('Bad gateway')] }, 502],
    ['a pair under HTTP 503', { data: { refreshToken: makePair('late') } }, 503],
    ['HTTP 429 with a non-failure code', rejection('RATE_LIMITED'), 429],
    ['no errors and no data under HTTP 200', { data: { refreshToken: null } }, 200],
  ])('throws AuthRequestError for %s', async (_name, body, status) => {
    const { value, error: thrown } = await refreshAnswered((call) => call.respond(body, status));
    expect(value).toBeUndefined();
    expect(AuthRequestError.is(thrown)).toBe(true);
    expect(AuthRejectedError.is(thrown)).toBe(false);
    expect(thrown).toMatchObject({ name: 'AuthRequestError', operation: 'refreshToken', status });
  });
});

describe('createGraphQLTransport: which refresh answers are a verdict on the token (AuthRejectedError)', () => {
  it.each([
    [
      'INVALID_REFRESH_TOKEN (HTTP 200)',
      rejection('INVALID_REFRESH_TOKEN', 'Refresh token reused'),
      200,
      'INVALID_REFRESH_TOKEN',
    ],
    [
      'two non-failure codes (HTTP 200)',
      { data: null, errors: [error('Expired', 'REFRESH_TOKEN_EXPIRED'), error('Revoked', 'INVALID_REFRESH_TOKEN')] },
      200,
      'REFRESH_TOKEN_EXPIRED',
    ],
    ['UNAUTHENTICATED under HTTP 401', rejection('UNAUTHENTICATED'), 401, 'UNAUTHENTICATED'],
    ['FORBIDDEN under HTTP 403', rejection('FORBIDDEN'), 403, 'FORBIDDEN'],
    ['an error without a code under HTTP 401', { data: null, errors: [error('Not allowed')] }, 401, undefined],
    ['an error without a code under HTTP 403', { data: null, errors: [error('Not allowed')] }, 403, undefined],
    ['an empty JSON object under HTTP 401', {}, 401, undefined],
    // The contract names no refusal code: GraphQL Yoga sends a thrown GraphQLError as it is.
    [
      'an error without extensions.code (HTTP 200)',
      { data: null, errors: [error('Invalid refresh token')] },
      200,
      undefined,
    ],
    [
      'an error with extensions but no code (HTTP 200)',
      { data: null, errors: [{ message: 'Invalid refresh token', extensions: {} }] },
      200,
      undefined,
    ],
    [
      'an error without a code in second position, after a non-failure code',
      { data: null, errors: [error('Bad input', 'BAD_USER_INPUT'), error('Resolver crashed')] },
      200,
      'BAD_USER_INPUT',
    ],
  ])('throws AuthRejectedError for %s', async (_name, body, status, code) => {
    const { value, error: thrown } = await refreshAnswered((call) => call.respond(body, status));
    expect(value).toBeUndefined();
    expect(AuthRejectedError.is(thrown)).toBe(true);
    expect(AuthRequestError.is(thrown)).toBe(false);
    expect(thrown).toMatchObject({ name: 'AuthRejectedError', operation: 'refreshToken', code });
  });

  it.each([
    ['HTTP 401 with an empty body', '', 401],
    ['HTTP 403 with an HTML body', '<h1>Forbidden</h1>', 403],
  ])('throws AuthRejectedError for %s', async (_name, text, status) => {
    const { error: thrown } = await refreshAnswered((call) => call.respondRaw(text, status));
    expect(AuthRejectedError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      operation: 'refreshToken',
      code: undefined,
      errors: [],
      message: `The service refused the session (HTTP ${status}).`,
    });
  });
});

describe('createGraphQLTransport: refusals that may be failures (isRefusal)', () => {
  it("throws an uncertain AuthRejectedError, in the server's words, for INTERNAL_SERVER_ERROR (Apollo Server's code for any error thrown without one)", async () => {
    const { error: thrown } = await refreshAnswered((call) =>
      call.respond(rejection('INTERNAL_SERVER_ERROR', 'Could not load the session'), 200),
    );
    expect(AuthRejectedError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      message: 'Could not load the session',
      code: 'INTERNAL_SERVER_ERROR',
      uncertain: true,
    });
  });

  it.each(['Invalid refresh token', 'Refresh token expired', 'jwt malformed', 'Not authenticated'])(
    'takes INTERNAL_SERVER_ERROR in the words of a refused token ("%s") for a verdict',
    async (message) => {
      const { error: thrown } = await refreshAnswered((call) =>
        call.respond(rejection('INTERNAL_SERVER_ERROR', message), 200),
      );
      expect(thrown).toMatchObject({ message, code: 'INTERNAL_SERVER_ERROR', uncertain: false });
    },
  );

  it.each([
    ['INTERNAL_SERVER_ERROR', 'Invalid email or password'],
    [undefined, 'Invalid email or password'],
    ['UNAUTHENTICATED', 'Wrong password'],
  ])(
    "rejects a login answered with code %s as AuthRejectedError with the server's message and code",
    async (code, message) => {
      const stub = createFetchStub();
      const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
      const login = transport.login('a@b.c', 'nope', new AbortController().signal).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      stub.last('loginWithEmailPassword').respond({ data: null, errors: [error(message, code)] });
      const thrown = await login;
      expect(AuthRejectedError.is(thrown)).toBe(true);
      expect(thrown).toMatchObject({ message, code, uncertain: false, operation: 'loginWithEmailPassword' });
    },
  );

  it("follows isRefusal: the call's name, a failure (false), a verdict (true) and 'maybe'", async () => {
    const isRefusal = vi.fn((error: AuthRejectedError, _call: string) =>
      error.code === 'DB_DOWN' ? false : error.code === 'HMM' ? ('maybe' as const) : true,
    );
    const outcomes: unknown[] = [];
    for (const code of ['DB_DOWN', 'HMM', 'SESSION_REVOKED']) {
      const stub = createFetchStub();
      const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch, isRefusal });
      const refresh = transport.refresh('r', new AbortController().signal).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      stub.last('refreshToken').respond(rejection(code, `said ${code}`));
      outcomes.push(await refresh);
    }
    expect(isRefusal.mock.calls.map(([error, call]) => [error.code, call])).toEqual([
      ['DB_DOWN', 'refresh'],
      ['HMM', 'refresh'],
      ['SESSION_REVOKED', 'refresh'],
    ]);
    expect(outcomes[0]).toMatchObject({
      name: 'AuthRequestError',
      message: 'refreshToken failed: said DB_DOWN.',
      cause: { code: 'DB_DOWN' },
    });
    expect(outcomes[1]).toMatchObject({ name: 'AuthRejectedError', code: 'HMM', uncertain: true });
    expect(outcomes[2]).toMatchObject({ name: 'AuthRejectedError', code: 'SESSION_REVOKED', uncertain: false });
  });
});

describe('createGraphQLTransport: answers with data', () => {
  it('returns the pair of an HTTP 200 answer that also carries a warning', async () => {
    const pair = makePair('warned');
    const { value, error: thrown } = await refreshAnswered((call) =>
      call.respond(
        { data: { refreshToken: pair }, errors: [error('Field "refreshToken" is deprecated', 'DEPRECATED')] },
        200,
      ),
    );
    expect(thrown).toBeUndefined();
    expect(value).toEqual(pair);
  });

  it('returns the scalar of a logout answered { data: { logout: true } }', async () => {
    const stub = createFetchStub();
    const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
    const pair = makePair('out');
    const logout = transport.logout(pair, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    const call = stub.last('logout');
    expect(call.variables).toEqual({ refreshToken: pair.refreshToken });
    expect(call.headers.authorization).toBe(`Bearer ${pair.accessToken}`);
    call.respond({ data: { logout: true } });
    await expect(logout).resolves.toBe(true);
  });
});

describe('createGraphQLTransport: logout', () => {
  it.each([
    [
      'TOKEN_EXPIRED under HTTP 500 (a context function that refuses it)',
      rejection('TOKEN_EXPIRED', 'Access token expired'),
      500,
    ],
    ['TOKEN_EXPIRED under HTTP 200', rejection('TOKEN_EXPIRED', 'Access token expired'), 200],
    ['HTTP 401', rejection('UNAUTHENTICATED'), 401],
  ])('sends the logout again without the access token when it was refused: %s', async (_name, body, status) => {
    const stub = createFetchStub();
    const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
    const pair = makePair('old');
    const logout = transport.logout(pair, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('logout').respond(body, status);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('logout')).toHaveLength(2);
    expect(stub.last('logout').headers.authorization).toBeUndefined();
    expect(stub.last('logout').variables).toEqual({ refreshToken: pair.refreshToken });
    stub.last('logout').respond({ data: { logout: { success: true } } });
    await expect(logout).resolves.toEqual({ success: true });
  });
});

describe('a session on the default transport', () => {
  it("ends the session as rejected, in the server's words, when three refreshes in a row are answered INTERNAL_SERVER_ERROR, within 30 s", async () => {
    const { session, stub, store, onSessionEnd } = await loggedIn({ auto: false });
    const refused = () =>
      stub.last('refreshToken').respond(rejection('INTERNAL_SERVER_ERROR', 'Session could not be renewed'));
    const first = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    refused();
    expect(await first).toMatchObject({ name: 'AuthRejectedError', uncertain: true });
    expect(session.getState()).toMatchObject({ status: 'authenticated', retry: { attempt: 1 } });
    // The retries come from the timer, each at least the 5 s floor after the one before.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(2);
    refused();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stub.of('refreshToken')).toHaveLength(3);
    expect(session.getState().status).toBe('authenticated');
    refused();
    await vi.advanceTimersByTimeAsync(0);
    expect(Date.now() - T0).toBeLessThan(30_000);
    expect(session.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', rejection: 'revoked', message: 'Session could not be renewed' },
    });
    expect(onSessionEnd).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'rejected', message: 'Session could not be renewed' }),
    );
    expect(await store.get()).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stub.of('refreshToken')).toHaveLength(3);
  });

  it('keeps the session through an INTERNAL_SERVER_ERROR that recovers, and a waiting operation gets the new pair', async () => {
    const { session, stub } = await loggedIn({ auto: false });
    const first = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INTERNAL_SERVER_ERROR', 'db down'));
    await first;
    // An operation answered TOKEN_EXPIRED now waits for the retry due in 5 s, instead of failing at once.
    const replay = session.recover((await session.current()) ?? undefined);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(2);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    expect((await replay).pair.accessToken).toBe(next.accessToken);
    expect(session.getState()).toMatchObject({ status: 'authenticated' });
    expect(session.getState().retry).toBeUndefined();
  });

  it('keeps the session, schedules a retry and does not end it when a refresh answers GATEWAY_TIMEOUT after a code-less error', async () => {
    const { session, stub, store, onSessionEnd, onError } = await loggedIn({ auto: false, retryDelay: 1_000 });
    const before = await store.get();
    const refresh = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub
      .last('refreshToken')
      .respond({ data: null, errors: [error('Resolver crashed'), error('Upstream timed out', 'GATEWAY_TIMEOUT')] });
    const thrown = await refresh;
    expect(AuthRequestError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ operation: 'refreshToken', status: 200 });
    const state = session.getState();
    expect(state.status).toBe('authenticated');
    expect(state.user?.id).toBe('u_1');
    // A 1 s backoff, held to the 5 s floor.
    expect(state.retry).toEqual({ at: T0 + 5_000, error: thrown, attempt: 1 });
    expect(await store.get()).toEqual(before);
    expect(onSessionEnd).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    session.dispose();
  });

  it('ends the session as rejected when a refresh is answered HTTP 403 with no body', async () => {
    const { session, stub, store, onSessionEnd } = await loggedIn({ auto: false });
    const refresh = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respondRaw('', 403);
    const thrown = await refresh;
    expect(thrown).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(AuthRejectedError.is((thrown as Error).cause)).toBe(true);
    expect(session.getState()).toMatchObject({ status: 'unauthenticated', user: null });
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    session.dispose();
  });

  it('rotates to the pair of a refresh answered with data and a warning, and a scalar logout answer is no error', async () => {
    const { session, stub, store, onSessionEnd, onError } = await loggedIn({ auto: false });
    const refresh = session.refresh();
    await vi.advanceTimersByTimeAsync(0);
    const next = makePair('warned');
    stub
      .last('refreshToken')
      .respond({ data: { refreshToken: next }, errors: [error('Field "refreshToken" is deprecated', 'DEPRECATED')] });
    await expect(refresh).resolves.toBeUndefined();
    expect(await store.get()).toEqual({ ...next, receivedAt: T0 });
    expect(await session.getAccessToken()).toBe(next.accessToken);
    expect(session.getState().retry).toBeUndefined();

    const logout = session.logout();
    await vi.advanceTimersByTimeAsync(0);
    const call = stub.last('logout');
    expect(call.variables).toEqual({ refreshToken: next.refreshToken });
    call.respond({ data: { logout: true } });
    await expect(logout).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).not.toHaveBeenCalled();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'logout' });
    expect(session.getState().status).toBe('unauthenticated');
    session.dispose();
  });
});

describe('createGraphQLTransport: messages of a rejection, for people', () => {
  it("a login refused with a bare 403 (a gateway's, with an HTML body) names the status, not the password", async () => {
    const stub = createFetchStub();
    const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
    const thrown = transport.login('a@b.test', 'pw', new AbortController().signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('loginWithEmailPassword').respondRaw('<html>Forbidden</html>', 403);
    const error = await thrown;
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ message: 'The service refused the sign-in (HTTP 403).', code: undefined });
  });

  it.each([
    [
      "the service's words when it sent some",
      'loginWithEmailPassword',
      rejection('INVALID_CREDENTIALS', 'Invalid email or password'),
      'Invalid email or password',
    ],
    [
      'plain words for a login refused without a message, blaming nobody',
      'loginWithEmailPassword',
      { data: null, errors: [{ extensions: { code: 'INVALID_CREDENTIALS' } }] },
      'The service refused the sign-in.',
    ],
    [
      'plain words for a refresh refused without a message',
      'refreshToken',
      { data: null, errors: [{ message: '', extensions: { code: 'INVALID_REFRESH_TOKEN' } }] },
      'The service refused the session.',
    ],
    [
      'no blame on the password for a login refused with another code',
      'loginWithEmailPassword',
      { data: null, errors: [{ extensions: { code: 'ACCOUNT_LOCKED' } }] },
      'The service refused the sign-in.',
    ],
  ])('%s', async (_name, field, body, message) => {
    const stub = createFetchStub();
    const transport = createGraphQLTransport({ uri: URI, fetch: stub.fetch });
    const signal = new AbortController().signal;
    const call = field === 'refreshToken' ? transport.refresh('r', signal) : transport.login('a@b.test', 'pw', signal);
    const thrown = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    stub.last(field).respond(body);
    const error = await thrown;
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ message, operation: field, code: body.errors[0]!.extensions.code });
  });
});

describe('createGraphQLTransport: documents without the contract arguments', () => {
  /** A transport whose calls are answered `status` with `body`; `sent` holds what each request carried. */
  function answering(body: unknown, status = 200, options: Partial<Parameters<typeof createGraphQLTransport>[0]> = {}) {
    const sent: Array<{ variables: unknown; authorization: string | undefined }> = [];
    const transport = createGraphQLTransport({
      uri: URI,
      ...options,
      fetch: async (_url, init = {}) => {
        const { variables } = JSON.parse(String(init.body)) as { variables: unknown };
        sent.push({ variables, authorization: (init.headers as Record<string, string>)['authorization'] });
        return new Response(JSON.stringify(body), { status });
      },
    });
    return { transport, sent };
  }
  const signal = new AbortController().signal;
  const pair = makePair('p1');

  it('sends $token and $refreshToken to the default documents, and nothing a document does not declare', async () => {
    const standard = answering({ data: { refreshToken: pair, logout: true } });
    await standard.transport.refresh('r1', signal);
    await standard.transport.logout({ ...pair, refreshToken: 'r1' }, signal);
    expect(standard.sent.map((each) => each.variables)).toEqual([{ token: 'r1' }, { refreshToken: 'r1' }]);

    const bare = answering({ data: { refreshToken: pair, logout: true } }, 200, {
      documents: {
        refresh: 'mutation { refreshToken: renewSession { accessToken } }',
        logout: 'mutation { logout: signOut }',
      },
    });
    await bare.transport.refresh('r1', signal);
    await bare.transport.logout({ ...pair, refreshToken: 'r1' }, signal);
    expect(bare.sent).toEqual([
      { variables: {}, authorization: undefined },
      { variables: {}, authorization: `Bearer ${pair.accessToken}` },
    ]);
  });

  it("refreshTokenIn: 'header' sends the refresh token as Authorization: Bearer, and never again without it", async () => {
    const ok = answering({ data: { refreshToken: { accessToken: pair.accessToken } } }, 200, {
      refreshTokenIn: 'header',
      documents: { refresh: 'mutation { refreshToken: refreshSession { accessToken } }' },
    });
    await expect(ok.transport.refresh('r1', signal)).resolves.toEqual({ accessToken: pair.accessToken });
    expect(ok.sent).toEqual([{ variables: {}, authorization: 'Bearer r1' }]);

    const refused = answering(rejection('UNAUTHENTICATED', 'Invalid refresh token'), 401, {
      refreshTokenIn: 'header',
      documents: { refresh: 'mutation { refreshToken: refreshSession { accessToken } }' },
    });
    const error = await refused.transport.refresh('r1', signal).catch((thrown: unknown) => thrown);
    expect(AuthRejectedError.is(error) && error.message).toBe('Invalid refresh token');
    expect(refused.sent).toHaveLength(1);
  });

  it('a logout may answer a Boolean, false included, or an object', async () => {
    for (const logout of [true, false, { ok: true }]) {
      const { transport } = answering({ data: { logout } }, 200, { documents: { logout: 'mutation { logout }' } });
      await expect(transport.logout({ ...pair, refreshToken: 'r1' }, signal)).resolves.toEqual(logout);
    }
  });
});
