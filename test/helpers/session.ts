import { ApolloLink } from '@apollo/client';
import { afterEach, beforeEach, expect, onTestFinished, vi } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenAuth,
  shareTokenStore,
  type Lock,
  type TokenAuthOptions as TokenSessionOptions,
} from '../../src';
import { createTokenSession } from '../../src/core/session/createTokenSession';
import type { TokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub } from './fetchStub';
import { makeJwt } from './jwt';
import { createServerLink } from './links';

/** The fake clock's start and a minute, for session tests. */
export const TIME = { T0: Date.UTC(2026, 0, 1, 12, 0, 0), MINUTE: 60_000 };

/** The auth service's endpoint in session tests: the fetch stub answers for it. */
export const AUTH_URI = 'http://auth.test/graphql';

/**
 * Fake timers from {@link TIME}.T0 for every test of the file (or of the `describe` block) that calls it, real
 * ones again after each. Tests that build their pairs before their session need the clock set first: call this.
 */
export function useTestClock() {
  beforeEach(() => void vi.useFakeTimers({ now: TIME.T0 }));
  afterEach(() => void vi.useRealTimers());
}

/** Fake timers from T0 for the rest of the running test, unless the test has faked them already. */
function ensureTestClock() {
  if (vi.isFakeTimers()) return;
  vi.useFakeTimers({ now: TIME.T0 });
  onTestFinished(() => void vi.useRealTimers());
}

/** What {@link setup} takes: the session's options, and the fetch stub's. */
export type SetupOptions = Partial<TokenSessionOptions> & {
  /** Whether the fetch stub answers logins and refreshes at once (default false: the test answers them). */
  auto?: boolean;
  /** The lifetime of the access tokens the stub issues, in seconds: the contract's 15 minutes by default. */
  lifetimeSeconds?: number;
  /** `'real'` for a test that needs real timers (it measures the heap, say); fake from T0 by default. */
  timers?: 'fake' | 'real';
};

/**
 * A session (`createTokenSession`) for a test: on the fake clock from T0 (see {@link useTestClock}), against a fetch
 * stub of the auth service at {@link AUTH_URI} that issues the contract's 15-minute access tokens, on a memory
 * store, with its callbacks as spies and the statuses it published. Any option overrides these; pass `transport`
 * for another server than the stub. `open()` starts another session (another tab) on the same stub and store with
 * the same options, its own callbacks unless given: hand `setup` a shared store for that.
 */
export function setup(options: SetupOptions = {}) {
  const { auto, lifetimeSeconds, timers = 'fake', ...overrides } = options;
  if (timers === 'fake') ensureTestClock();
  const stub = createFetchStub({ auto, lifetimeSeconds });
  const store = overrides.store ?? createMemoryTokenStore();
  const onSessionEnd = vi.fn();
  const onError = vi.fn();
  const base: TokenSessionOptions = { uri: AUTH_URI, fetch: stub.fetch, store, ...overrides };
  const session = createTokenSession({ onSessionEnd, onError, ...base });
  const states: string[] = [];
  session.subscribe(() => states.push(session.getState().status));
  const open = (more: Partial<TokenSessionOptions> = {}) => createTokenSession({ ...base, ...more });
  return { session, stub, store, onSessionEnd, onError, states, open };
}

/** {@link setup}, logged in, with the login's calls and states forgotten; `auto` applies from then on. */
export async function loggedIn(options: SetupOptions = {}) {
  const ctx = setup({ ...options, auto: true });
  await ctx.session.login('a@b.test', 'pw');
  ctx.stub.auto = options.auto ?? true;
  ctx.states.length = 0;
  ctx.stub.calls.length = 0;
  return ctx;
}

/** The token an operation would go out with now: synchronously when no wait is needed, as the links see it. */
export function accessTokenOf(session: Pick<TokenSession, 'current'>): string | null | Promise<string | null> {
  const sent = session.current();
  const token = (value: { pair: { accessToken: string } } | null) => value?.pair.accessToken ?? null;
  return sent instanceof Promise ? sent.then(token) : token(sent);
}

/**
 * Two tabs' sessions on one shared store whose lock is `lock`, with the contract's 15-minute access tokens, a
 * 1-s lead and no resume: `here` logged in, `there` following it.
 */
export async function twoTabs(lock: Lock) {
  const {
    session: here,
    stub,
    open,
  } = setup({
    auto: true,
    store: shareTokenStore(createMemoryTokenStore(), { lock }),
    refreshLeadTime: 1000,
    refreshOnResume: false,
    onSessionEnd: undefined,
    onError: undefined,
  });
  const there = open();
  await here.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(10);
  return { stub, here, there };
}

type AuthOptions = Parameters<typeof createTokenAuth>[0];
type ServerLink = { link: ApolloLink };

/**
 * {@link setup} through the links: `createTokenAuth` on the fake clock, against the fetch stub (answering at once if
 * `auto`), in front of a server link (`createServerLink` unless given); nobody logged in. The session is disposed
 * when the test ends. `link` runs operations through both.
 */
export function setupLinks<S extends ServerLink = ReturnType<typeof createServerLink>>(
  options: Partial<AuthOptions> = {},
  server = createServerLink() as unknown as S,
  auto = true,
) {
  ensureTestClock();
  const stub = createFetchStub({ auto });
  const onSessionEnd = vi.fn();
  const auth = createTokenAuth({ uri: AUTH_URI, fetch: stub.fetch, onSessionEnd, ...options });
  onTestFinished(() => auth.dispose());
  return { auth, stub, server, onSessionEnd, link: ApolloLink.from([auth.link, server.link]) };
}

/** {@link setupLinks}, logged in as u_1 with a 15-minute token; calls are then answered by hand. */
export async function loggedInLinks<S extends ServerLink = ReturnType<typeof createServerLink>>(
  options: Partial<AuthOptions> = {},
  server?: S,
) {
  const ctx = setupLinks(options, server);
  await ctx.auth.login('a@b.test', 'pw');
  ctx.stub.auto = false;
  ctx.stub.calls.length = 0;
  return { ...ctx, token: (await ctx.auth.getAccessToken())! };
}

/**
 * Two sessions through the links (two tabs) on one shared store and one fetch stub; A has logged in and B
 * followed. Calls are then answered by hand. Both are disposed when the test ends.
 */
export async function twoLinkedTabs(store: TokenSessionOptions['store']) {
  ensureTestClock();
  const stub = createFetchStub({ auto: true });
  const server = createServerLink();
  const [a, b] = [0, 1].map(() => {
    const auth = createTokenAuth({ uri: AUTH_URI, fetch: stub.fetch, store });
    onTestFinished(() => auth.dispose());
    return { auth, link: ApolloLink.from([auth.link, server.link]) };
  }) as [{ auth: Auth; link: ApolloLink }, { auth: Auth; link: ApolloLink }];
  await a.auth.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(0);
  expect(b.auth.getState().status).toBe('authenticated');
  stub.auto = false;
  stub.calls.length = 0;
  return { a, b, stub, server };
}

type Auth = ReturnType<typeof createTokenAuth>;

/** Records how a promise settles, so a test can look without hanging on it. */
export function watch<T>(promise: Promise<T>) {
  const seen = { settled: false, error: undefined as unknown };
  promise.then(
    () => void (seen.settled = true),
    (error: unknown) => void Object.assign(seen, { settled: true, error }),
  );
  return seen;
}

/** B (user u_2, in the answer and in the token's sub) logs in on `auth`; logouts are answered from then on. */
export async function loginAsB(auth: Pick<Auth, 'login'>, stub: ReturnType<typeof createFetchStub>) {
  const iat = Math.floor(Date.now() / 1000);
  const b = {
    accessToken: makeJwt({ sub: 'u_2', email: 'c@d.test', role: 'ADMIN', iat, exp: iat + 900 }),
    refreshToken: 'refresh-b',
  };
  const login = watch(auth.login('c@d.test', 'pw'));
  await vi.advanceTimersByTimeAsync(0);
  stub
    .last('loginWithEmailPassword')
    .respond({ data: { loginWithEmailPassword: { ...b, user: { id: 'u_2', email: 'c@d.test', role: 'ADMIN' } } } });
  stub.auto = true;
  for (const call of stub.of('logout')) if (!call.settled) stub.answer(call);
  await vi.advanceTimersByTimeAsync(0);
  return login;
}

/** Lets the fake clock run `ms` (none by default), settling what is due meanwhile. */
export const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

/** How many refreshes reached the fetch stub. */
export const refreshCount = (stub: ReturnType<typeof createFetchStub>) => stub.of('refreshToken').length;
