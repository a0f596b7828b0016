import { vi } from 'vitest';
import {
  createMemoryTokenStore,
  shareTokenStore,
  type Lock,
  type TokenAuthOptions as TokenSessionOptions,
} from '../../src';
import { createTokenSession, type TokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub } from './fetchStub';

/** The fake clock's start and a minute, for session tests. */
export const TIME = { T0: Date.UTC(2026, 0, 1, 12, 0, 0), MINUTE: 60_000 };

/** A session on a fetch stub, with its callbacks as spies and the statuses it published. */
export function setup(options: Partial<TokenSessionOptions> & { auto?: boolean; lifetimeSeconds?: number } = {}) {
  const stub = createFetchStub({ auto: options.auto, lifetimeSeconds: options.lifetimeSeconds });
  const store = options.store ?? createMemoryTokenStore();
  const onSessionEnd = vi.fn();
  const onError = vi.fn();
  const session = createTokenSession({
    uri: 'http://auth.test/graphql',
    fetch: stub.fetch,
    store,
    onSessionEnd,
    onError,
    ...options,
  });
  const states: string[] = [];
  session.subscribe(() => states.push(session.getState().status));
  return { session, stub, store, onSessionEnd, onError, states };
}

/** {@link setup}, logged in, with the login's calls and states forgotten; `auto` applies from then on. */
export async function loggedIn(options: Parameters<typeof setup>[0] = {}) {
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
  const store = shareTokenStore(createMemoryTokenStore(), { lock });
  const stub = createFetchStub({ auto: true, lifetimeSeconds: 900 });
  const options = {
    uri: 'http://auth.test/graphql',
    fetch: stub.fetch,
    store,
    refreshLeadTime: 1000,
    refreshOnResume: false as const,
  };
  const here = createTokenSession(options);
  const there = createTokenSession(options);
  await here.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(10);
  return { stub, here, there };
}
