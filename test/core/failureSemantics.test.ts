import { ApolloLink } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../src';
import {
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  createTokenStore,
  type TokenStore,
} from '../../src';
import { createFetchStub, rejection } from '../helpers/fetchStub';
import { makeJwt, makePair } from '../helpers/jwt';
import { createServerLink, execute } from '../helpers/links';
import { TIME } from '../helpers/session';

const { T0, MINUTE } = TIME;
const URI = 'http://auth.test/graphql';
type Options = Parameters<typeof createTokenAuth>[0];
type Auth = ReturnType<typeof createTokenAuth>;
type Stub = ReturnType<typeof createFetchStub>;
// Where shareTokenStore does not exist, sessions get the plain store and the old defaults.
const share: NonNullable<typeof api.shareTokenStore> = api.shareTokenStore ?? (((store: TokenStore) => store) as never);

const live: Auth[] = [];
const keep = (auth: Auth) => (live.push(auth), auth);
const refreshes = (stub: Stub) => stub.of('refreshToken').length;
const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => void vi.useFakeTimers({ now: T0 }));
afterEach(() => {
  for (const auth of live.splice(0)) auth.dispose();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A session on a fetch stub (answering at once if `auto`) and a server link; nobody logged in. */
function make<S extends { link: ApolloLink } = ReturnType<typeof createServerLink>>(
  options: Partial<Options> = {},
  server = createServerLink() as unknown as S,
  auto = true,
) {
  const stub = createFetchStub({ auto });
  const onSessionEnd = vi.fn();
  const auth = keep(createTokenAuth({ uri: URI, fetch: stub.fetch, onSessionEnd, ...options }));
  return { auth, stub, server, onSessionEnd, link: ApolloLink.from([auth.link, server.link]) };
}

/** Logged in as u_1 with a 15-minute token; calls are then answered by hand. */
async function setup<S extends { link: ApolloLink } = ReturnType<typeof createServerLink>>(
  options: Partial<Options> = {},
  server?: S,
) {
  const ctx = make(options, server);
  await ctx.auth.login('a@b.test', 'pw');
  ctx.stub.auto = false;
  ctx.stub.calls.length = 0;
  return { ...ctx, token: (await ctx.auth.getAccessToken())! };
}

/** Records how a promise settles, so a test can look without hanging on it. */
function watch<T>(promise: Promise<T>) {
  const seen = { settled: false, error: undefined as unknown };
  promise.then(
    () => void (seen.settled = true),
    (error: unknown) => void Object.assign(seen, { settled: true, error }),
  );
  return seen;
}

/** B (user u_2, in the answer and in the token's sub) logs in on `auth`; logouts are answered from then on. */
async function loginAsB(auth: Auth, stub: Stub) {
  const iat = Math.floor(Date.now() / 1000);
  const b = {
    accessToken: makeJwt({ sub: 'u_2', email: 'c@d.test', role: 'ADMIN', iat, exp: iat + 900 }),
    refreshToken: 'refresh-b',
  };
  const login = watch(auth.login('c@d.test', 'pw'));
  await tick();
  stub
    .last('loginWithEmailPassword')
    .respond({ data: { loginWithEmailPassword: { ...b, user: { id: 'u_2', email: 'c@d.test', role: 'ADMIN' } } } });
  stub.auto = true;
  for (const call of stub.of('logout')) if (!call.settled) stub.answer(call);
  await tick();
  return login;
}

describe('a proactive refresh never holds back an operation whose token is still valid', () => {
  it('sends operations at once with the current token while the proactive refresh is out, and they succeed though it fails', async () => {
    const { auth, stub, server, link, token } = await setup({ retryDelay: 1000 });
    await tick(15 * MINUTE - 150_000);
    expect(refreshes(stub)).toBe(1);
    server.hold = true;
    const runs = Array.from({ length: 5 }, (_, i) => execute(link, { i }));
    await tick();
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(5).fill(`Bearer ${token}`));
    stub.last('refreshToken').fail();
    await tick();
    server.release();
    await tick();
    for (const run of runs)
      expect(run).toMatchObject({
        completed: true,
        error: undefined,
        results: [{ data: { me: { id: 'u_1', token } } }],
      });
    expect(refreshes(stub)).toBe(1);
    expect(server.attempts).toHaveLength(5);
    expect(auth.getState().status).toBe('authenticated');
  });

  it('makes only an operation whose token is dead wait for the proactive refresh, then sends it with the new token', async () => {
    const { stub, server, link, token } = await setup();
    await tick(15 * MINUTE - 150_000);
    server.hold = true;
    const valid = execute(link);
    await tick();
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${token}`]);
    vi.setSystemTime(T0 + 16 * MINUTE);
    const dead = execute(link);
    await tick();
    expect(server.attempts).toHaveLength(1);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await tick();
    server.hold = false;
    server.release();
    await tick();
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${token}`, `Bearer ${next.accessToken}`]);
    expect(valid).toMatchObject({ completed: true, results: [{ data: { me: { id: 'u_1', token } } }] });
    expect(dead).toMatchObject({
      completed: true,
      results: [{ data: { me: { id: 'u_1', token: next.accessToken } } }],
    });
    expect(refreshes(stub)).toBe(1);
  });
});

describe('an operation never runs as another user', () => {
  it("fails A's operation that waits for a refresh when B logs in, and never replays it with B's token", async () => {
    const { auth, stub, server, link, token } = await setup();
    server.expired.add(token);
    const run = execute(link);
    await tick();
    expect(refreshes(stub)).toBe(1);
    const refresh = stub.last('refreshToken');
    const login = await loginAsB(auth, stub);
    // A's refresh answers only after B's login: its pair belongs to nobody.
    refresh.respond({ data: { refreshToken: stub.nextPair() } });
    await tick();
    expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'replaced' });
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${token}`]);
    expect(refreshes(stub)).toBe(1);
    expect(login).toMatchObject({ settled: true, error: undefined });
    expect(auth.getState().user?.id).toBe('u_2');
  });

  it('replays, once with the new pair, the operations waiting on a refresh when the same user signs in again meanwhile', async () => {
    const { auth, stub, server, link, token, onSessionEnd } = await setup();
    server.expired.add(token);
    const runs = Array.from({ length: 10 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshes(stub)).toBe(1);
    const refresh = stub.last('refreshToken');
    const login = watch(auth.login('a@b.test', 'pw'));
    await tick();
    const again = stub.nextPair();
    stub
      .last('loginWithEmailPassword')
      .respond({
        data: { loginWithEmailPassword: { ...again, user: { id: 'u_1', email: 'a@b.test', role: 'ADMIN' } } },
      });
    await tick();
    expect(login).toMatchObject({ settled: true, error: undefined });
    expect(onSessionEnd).not.toHaveBeenCalled();
    // The refresh they wait on answers after the login: its pair belongs to nobody and is revoked, once, and the
    // operations replay with the login's pair.
    stub.auto = true;
    const late = stub.nextPair();
    refresh.respond({ data: { refreshToken: late } });
    await tick();
    for (const run of runs) expect(run).toMatchObject({ completed: true, error: undefined });
    expect(server.attempts.slice(10).map((a) => a.authorization)).toEqual(
      Array(10).fill(`Bearer ${again.accessToken}`),
    );
    expect(onSessionEnd).not.toHaveBeenCalled();
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).toEqual([late.refreshToken]);
    expect(await auth.getAccessToken()).toBe(again.accessToken);
    expect(refreshes(stub)).toBe(1);
  });

  it("fails A's operation that comes back TOKEN_EXPIRED after B logged in, without a replay or a refresh", async () => {
    const { auth, stub, server, link, token } = await setup();
    server.hold = true;
    const run = execute(link);
    await tick();
    const login = await loginAsB(auth, stub);
    expect(login).toMatchObject({ settled: true, error: undefined });
    server.expired.add(token);
    server.hold = false;
    server.release();
    await tick();
    expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'replaced' });
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${token}`]);
    expect(refreshes(stub)).toBe(0);
  });
});

describe('a refresh answered 401 or 403 without a GraphQL error code', () => {
  it.each([
    ['HTTP 401 with no body', 401, ''],
    ['HTTP 403 with no body', 403, ''],
    ['HTTP 401 with {}', 401, '{}'],
    ['HTTP 403 with {}', 403, '{}'],
    ['HTTP 401 with Unauthorized', 401, 'Unauthorized'],
  ])('ends the session when answered %s, with no retry', async (_name, status, body) => {
    const { auth, stub, onSessionEnd } = await setup({ retryDelay: 1000 });
    const refresh = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').respondRaw(body, status);
    await tick();
    expect(refresh.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    await tick(60 * MINUTE);
    expect(refreshes(stub)).toBe(1);
  });
});

/** A server that refuses tokens in `revoked`: with GraphQL UNAUTHENTICATED, or with a bare HTTP 401. */
function createGuardLink(refusal: 'graphql' | 'http') {
  const attempts: Array<string | undefined> = [];
  const revoked = new Set<string>();
  const unauthenticated = {
    data: null,
    errors: [{ message: 'Unauthenticated', extensions: { code: 'UNAUTHENTICATED' } }],
  };
  const http401 = () =>
    new ServerError('Response not successful: Received status code 401', {
      response: new Response('Unauthorized', { status: 401 }),
      bodyText: 'Unauthorized',
    });
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const authorization = (operation.getContext().headers as Record<string, string> | undefined)?.authorization;
        attempts.push(authorization);
        const refused = !!authorization && revoked.has(authorization.replace(/^Bearer /, ''));
        queueMicrotask(() => {
          if (refused && refusal === 'http') return observer.error(http401());
          observer.next(
            refused ? unauthenticated : { data: { me: { id: 'u_1', token: authorization?.replace(/^Bearer /, '') } } },
          );
          observer.complete();
        });
      }),
  );
  return { link, attempts, revoked };
}

describe('a revoked session is noticed at once', () => {
  it('ends the session when an UNAUTHENTICATED answer triggers a refresh that is rejected', async () => {
    const { auth, stub, server, link, token, onSessionEnd } = await setup({}, createGuardLink('graphql'));
    server.revoked.add(token);
    const run = execute(link);
    await tick();
    expect(refreshes(stub)).toBe(1);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await tick();
    expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    expect(server.attempts).toEqual([`Bearer ${token}`]);
    expect(refreshes(stub)).toBe(1);
  });

  it.each(['graphql', 'http'] as const)(
    'replays once with the new token when a %s refusal triggers a refresh that succeeds',
    async (refusal) => {
      const { stub, server, link, token } = await setup({}, createGuardLink(refusal));
      server.revoked.add(token);
      const run = execute(link);
      await tick();
      expect(refreshes(stub)).toBe(1);
      const next = stub.nextPair();
      stub.last('refreshToken').respond({ data: { refreshToken: next } });
      await tick();
      expect(run).toMatchObject({
        completed: true,
        error: undefined,
        results: [{ data: { me: { id: 'u_1', token: next.accessToken } } }],
      });
      expect(server.attempts).toEqual([`Bearer ${token}`, `Bearer ${next.accessToken}`]);
      expect(refreshes(stub)).toBe(1);
    },
  );
});

describe('one backoff for every trigger', () => {
  it.each(['dead by the local clock', 'answered TOKEN_EXPIRED'])(
    'sends no refresh of their own for 50 operations %s while a retry is due within 10 s: they wait for it and go on with its pair',
    async (how) => {
      const { auth, stub, server, link, token } = await setup({ retryDelay: 1000 });
      const first = watch(auth.refresh());
      await tick();
      stub.last('refreshToken').fail();
      await tick();
      expect(AuthRequestError.is(first.error)).toBe(true);
      // The retry: a 1 s backoff held to the 5 s floor.
      expect(auth.getState().retry).toMatchObject({ at: T0 + 5_000, attempt: 1 });
      const dead = how === 'dead by the local clock';
      if (dead) vi.setSystemTime(T0 + 4_000 + 16 * MINUTE);
      else server.expired.add(token);
      const runs = Array.from({ length: 50 }, (_, i) => execute(link, { i }));
      await tick();
      // Dead by the clock, the retry is past due: the operations' one refresh is that retry, at once.
      expect(refreshes(stub)).toBe(dead ? 2 : 1);
      for (const run of runs) expect(run).toMatchObject({ completed: false, error: undefined });
      expect(server.attempts.map((a) => a.authorization)).toEqual(dead ? [] : Array(50).fill(`Bearer ${token}`));
      if (!dead) {
        await tick(4_999);
        expect(refreshes(stub)).toBe(1);
        await tick(1);
        expect(refreshes(stub)).toBe(2);
      }
      const next = stub.nextPair();
      stub.last('refreshToken').respond({ data: { refreshToken: next } });
      await tick();
      expect(auth.getState().retry).toBeUndefined();
      for (const run of runs) expect(run).toMatchObject({ completed: true, error: undefined });
      expect(server.attempts.slice(dead ? 0 : 50).map((a) => a.authorization)).toEqual(
        Array(50).fill(`Bearer ${next.accessToken}`),
      );
    },
  );

  it('fails operations that need a new pair at once, with the failure the retry waits out, when the retry is due in more than 10 s', async () => {
    const { auth, stub, server, link, token } = await setup({ retryDelay: 20_000 });
    const first = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').fail();
    await tick();
    expect(AuthRequestError.is(first.error)).toBe(true);
    server.expired.add(token);
    const runs = Array.from({ length: 5 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshes(stub)).toBe(1);
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'refreshToken' });
    await tick(20_000);
    expect(refreshes(stub)).toBe(2);
  });

  it('retries after a full-jitter delay by default: 500 ms, not 1 s, when Math.random gives 0.5 (no floor)', async () => {
    const { auth, stub } = await setup({ refreshFloor: 0 });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const first = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').fail();
    await tick(499);
    expect(AuthRequestError.is(first.error)).toBe(true);
    expect(refreshes(stub)).toBe(1);
    await tick(1);
    expect(refreshes(stub)).toBe(2);
    stub.answer(stub.last('refreshToken'));
    await tick();
    expect(auth.getState().status).toBe('authenticated');
    expect(auth.getState().retry).toBeUndefined();
  });

  it('does not retry by timer while the resume source says offline, and retries once when it resumes', async () => {
    let online = true;
    const resumes = new Set<() => void>();
    const refreshOnResume = {
      subscribe: (resume: () => void) => (resumes.add(resume), () => void resumes.delete(resume)),
      isOnline: () => online,
    };
    const { auth, stub } = await setup({ refreshOnResume, retryDelay: 1000 });
    const first = watch(auth.refresh());
    await tick();
    online = false;
    stub.last('refreshToken').fail();
    await tick(10 * MINUTE);
    expect(AuthRequestError.is(first.error)).toBe(true);
    expect(refreshes(stub)).toBe(1);
    expect(auth.getState().retry).toMatchObject({ attempt: 1 });
    expect(auth.getState().retry?.at).toBeUndefined();
    online = true;
    for (const resume of resumes) resume();
    await tick();
    expect(refreshes(stub)).toBe(2);
    stub.answer(stub.last('refreshToken'));
    await tick();
    expect(auth.getState().status).toBe('authenticated');
    expect(auth.getState().retry).toBeUndefined();
  });
});

/** Two sessions on one shared store and one fetch stub; A has logged in and B followed. Calls are then answered by hand. */
async function twoShared(store: TokenStore) {
  const stub = createFetchStub({ auto: true });
  const server = createServerLink();
  const [a, b] = [0, 1].map(() => {
    const auth = keep(createTokenAuth({ uri: URI, fetch: stub.fetch, store }));
    return { auth, link: ApolloLink.from([auth.link, server.link]) };
  }) as [{ auth: Auth; link: ApolloLink }, { auth: Auth; link: ApolloLink }];
  await a.auth.login('a@b.test', 'pw');
  await tick();
  expect(b.auth.getState().status).toBe('authenticated');
  stub.auto = false;
  stub.calls.length = 0;
  return { a, b, stub, server };
}

describe('nothing the app supplies can hang the session', () => {
  it('resolves login within storeTimeout when the store never finishes a write', async () => {
    const { auth, stub, server, link } = make({
      store: createTokenStore({ get: () => null, set: () => new Promise<void>(() => {}), clear: () => {} }),
    });
    const login = watch(auth.login('a@b.test', 'pw'));
    await tick(10_000);
    expect(login).toMatchObject({ settled: true, error: undefined });
    expect(auth.getState().status).toBe('authenticated');
    const token = (await auth.getAccessToken())!;
    const run = execute(link);
    await tick();
    expect(run).toMatchObject({ completed: true, results: [{ data: { me: { id: 'u_1', token } } }] });
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${token}`]);
    expect(refreshes(stub)).toBe(0);
  });

  it('leaves loading after storeTimeout when the store never answers a read, and operations settle', async () => {
    const { auth, stub, server, link } = make({
      store: createTokenStore({ get: () => new Promise<null>(() => {}), set: () => {}, clear: () => {} }),
    });
    const runs = [execute(link), execute(link)];
    await tick(10_000);
    expect(auth.getState().status).toBe('unauthenticated');
    for (const run of runs) expect(run.settled).toBe(true);
    expect(server.attempts.map((a) => a.authorization)).toEqual([undefined, undefined]);
    expect(refreshes(stub)).toBe(0);
  });

  it('fails operations whose token is dead within lockTimeout when the shared lock is never granted, spending no token', async () => {
    let granted = true;
    const lock = <T>(_name: string, task: () => Promise<T>) => (granted ? task() : new Promise<T>(() => {}));
    const { a, b, server, stub } = await twoShared(share(createMemoryTokenStore(), { lock }));
    granted = false;
    vi.setSystemTime(T0 + 16 * MINUTE);
    const runs = [a, b, a, b].map(({ link }) => execute(link));
    // The lock times out (20 s), and the operations fail then: a retry would make their wait longer than 10 s.
    await tick(19_000);
    for (const run of runs) expect(run.error).toBeUndefined();
    await tick(1_000);
    expect(refreshes(stub)).toBe(0);
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'lock' });
    expect(server.attempts).toHaveLength(0);
    await tick(10 * MINUTE);
    expect(refreshes(stub)).toBe(0);
  });
});

/** A storage of the app's own (a file, Keychain): what it holds outlives the process, for the next start. */
const persistentStore = () => {
  const memory = createMemoryTokenStore();
  return { memory, store: createTokenStore({ get: memory.get, set: memory.set, clear: memory.clear }) };
};

describe('dispose() aborts a refresh in flight', () => {
  it('on the memory store, aborts the refresh already sent too, and clears the spent pair: nothing reads it after this session', async () => {
    const store = createMemoryTokenStore();
    const { auth, stub, server, link, token } = await setup({ store });
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshes(stub)).toBe(1);
    auth.dispose();
    await tick();
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'dispose' });
    // The request is aborted: it holds no process up, and its answer goes to no one.
    expect(stub.last('refreshToken').settled).toBe(true);
    expect(await store.get()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    expect(() => keep(createTokenAuth({ uri: URI, store }))).not.toThrow();
  });

  it('settles the operations waiting on it at once, and lets the refresh already sent store its pair before a persistent store is let go', async () => {
    const { memory, store } = persistentStore();
    const { auth, stub, server, link, token } = await setup({ store });
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshes(stub)).toBe(1);
    auth.dispose();
    await tick();
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'dispose' });
    // The server may have rotated already: the request goes on, and its pair replaces the spent one in the store.
    expect(stub.last('refreshToken').settled).toBe(false);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await tick();
    expect((await memory.get())?.refreshToken).toBe(next.refreshToken);
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(3).fill(`Bearer ${token}`));
    expect(refreshes(stub)).toBe(1);
    // The store is let go once that pair is stored: another session may take it.
    expect(() => keep(createTokenAuth({ uri: URI, store }))).not.toThrow();
  });

  it('lets a refresh already sent end at refreshTimeout (and its 1 s of grace) after dispose(), keeping the pair a persistent store holds', async () => {
    const { memory, store } = persistentStore();
    const { auth, stub, server, link, token } = await setup({ store, refreshTimeout: 2_000 });
    const before = await memory.get();
    server.expired.add(token);
    execute(link);
    await tick();
    auth.dispose();
    await tick(2_999);
    expect(stub.last('refreshToken').settled).toBe(false);
    await tick(1);
    expect(stub.last('refreshToken').settled).toBe(true);
    expect(await memory.get()).toEqual(before);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a restore whose refresh is rejected', () => {
  it('fails the operations waiting on it with SessionEndedError and sends none without a token', async () => {
    const stored = makePair('stored', { now: T0 - 35 * MINUTE });
    const { auth, stub, server, link } = make<ReturnType<typeof createServerLink>>(
      { store: createMemoryTokenStore(stored) },
      undefined,
      false,
    );
    expect(auth.getState().status).toBe('loading');
    const runs = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    await tick();
    expect(stub.of('refreshToken').map((call) => call.variables)).toEqual([{ token: stored.refreshToken }]);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await tick();
    for (const run of runs) expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(server.attempts).toHaveLength(0);
    expect(auth.getState().status).toBe('unauthenticated');
    expect(refreshes(stub)).toBe(1);
  });
});

describe('a shared store that cannot be read inside the lock', () => {
  it('fails the refresh with AuthRequestError without submitting the refresh token, and keeps the session', async () => {
    const memory = createMemoryTokenStore();
    let broken = false;
    const get = () => (broken ? Promise.reject(new Error('keychain locked')) : memory.get());
    const { a, stub } = await twoShared(share({ ...memory, get }));
    broken = true;
    const refresh = watch(a.auth.refresh());
    await tick();
    expect(refreshes(stub)).toBe(0);
    expect(AuthRequestError.is(refresh.error)).toBe(true);
    expect(a.auth.getState().status).toBe('authenticated');
  });
});

describe('no live session left behind, nothing sent twice', () => {
  it("revokes the replaced pair's refresh token when someone else logs in", async () => {
    const store = createMemoryTokenStore();
    const { auth, stub } = await setup({ store });
    const replaced = (await store.get())!;
    const login = await loginAsB(auth, stub);
    expect(login).toMatchObject({ settled: true, error: undefined });
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken: replaced.refreshToken }]);
    expect(auth.getState().user?.id).toBe('u_2');
    expect(refreshes(stub)).toBe(0);
  });

  it('revokes the refresh token of a refresh answer whose access token is not a JWT, and ends the session', async () => {
    const { auth, stub } = await setup();
    const refresh = watch(auth.refresh());
    await tick();
    stub.auto = true;
    stub.last('refreshToken').respond({ data: { refreshToken: { accessToken: 'not-a-jwt', refreshToken: 'r-new' } } });
    await tick();
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken: 'r-new' }]);
    expect(refresh.error).toMatchObject({ name: 'SessionEndedError' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(refreshes(stub)).toBe(1);
  });

  it('sends one logout request for two concurrent logout() calls', async () => {
    const store = createMemoryTokenStore();
    const { auth, stub } = await setup({ store });
    const { refreshToken } = (await store.get())!;
    stub.auto = true;
    const logouts = [watch(auth.logout()), watch(auth.logout())];
    await tick();
    for (const logout of logouts) expect(logout).toMatchObject({ settled: true, error: undefined });
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken }]);
    expect(auth.getState().status).toBe('unauthenticated');
  });
});

describe('one event gives one reason', () => {
  it('fails waiting operations and one that comes back TOKEN_EXPIRED after the rejection with the same reason', async () => {
    const { auth, stub, server, link, token } = await setup();
    server.hold = true;
    const waiting = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    const late = execute(link, { late: true });
    await tick();
    server.expired.add(token);
    server.release(3);
    await tick();
    expect(refreshes(stub)).toBe(1);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await tick();
    server.release();
    await tick();
    for (const run of [...waiting, late])
      expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(4).fill(`Bearer ${token}`));
    expect(refreshes(stub)).toBe(1);
    expect(auth.getState().status).toBe('unauthenticated');
  });
});

describe('an unwrapped store handed to two sessions', () => {
  it('refuses the second live session, naming shareTokenStore, and accepts one once the first is disposed', () => {
    const store = createMemoryTokenStore();
    const first = keep(createTokenAuth({ uri: URI, store }));
    expect(() => keep(createTokenAuth({ uri: URI, store }))).toThrow(/shareTokenStore/);
    first.dispose();
    expect(() => keep(createTokenAuth({ uri: URI, store }))).not.toThrow();
  });

  it("refuses it for a storage of the app's own too, even wrapped twice", () => {
    const storage = { get: () => null, set: () => {}, clear: () => {} };
    const first = keep(createTokenAuth({ uri: URI, store: createTokenStore(storage) }));
    expect(() => keep(createTokenAuth({ uri: URI, store: createTokenStore(storage) }))).toThrow(/shareTokenStore/);
    first.dispose();
    expect(() => keep(createTokenAuth({ uri: URI, store: createTokenStore(storage) }))).not.toThrow();
  });
});
