import { describe, expect, it, vi } from 'vitest';
import {
  AuthRequestError,
  createMemoryTokenStore,
  SessionEndedError,
  type TokenAuthTransport,
  type TransportAnswer,
} from '../../../src';
import { createTokenSession } from '../../../src/core/session/createTokenSession';
import { makePair } from '../../helpers/jwt';
import { setup, TIME, useTestClock } from '../../helpers/session';

// The engine with a transport that keeps the session itself, as a token handler does (ownsSession): how it times a
// pair, what it is told to log out, and what its no-session and logged-out answers mean.

const { T0, MINUTE } = TIME;

useTestClock();

/**
 * A transport that keeps the session itself, as a token handler does: each call answers with what the test
 * queued, and every call is recorded.
 */
function ownedTransport() {
  const calls: string[] = [];
  const answers: Array<() => Promise<TransportAnswer>> = [];
  const next = (name: string) => {
    calls.push(name);
    const answer = answers.shift();
    if (!answer) throw new Error(`no answer queued for ${name}`);
    return answer();
  };
  const transport: TokenAuthTransport = {
    ownsSession: true,
    login: () => next('login'),
    refresh: () => next('refresh'),
    logout: async () => void calls.push('logout'),
  };
  const pair = (name: string, age?: number) => {
    const { accessToken } = makePair(name, { now: Date.now() - (age ?? 0) });
    return async () => ({ accessToken, refreshToken: accessToken, ...(age !== undefined && { age }) });
  };
  return { transport, calls, answers, pair };
}

/** A session on the owned transport, with no resume and a 1-s retry delay, and its onSessionEnd spy. */
function start(owned: ReturnType<typeof ownedTransport>, options: Parameters<typeof createTokenSession>[0] = {}) {
  const { session, onSessionEnd } = setup({
    transport: owned.transport,
    refreshOnResume: false,
    retryDelay: 1000,
    onError: undefined,
    ...options,
  });
  return { session, onSessionEnd };
}

describe('a transport that owns the session (a token handler)', () => {
  it('times a pair by the age the answer gives, not from when it arrived', async () => {
    const owned = ownedTransport();
    owned.answers.push(owned.pair('p1', 10 * MINUTE));
    const { session } = start(owned);
    await session.login('a@b.test', 'pw');
    // 15-minute token issued 10 minutes ago: it dies in 5 minutes, and is renewed 2.5 minutes before.
    expect(session.getState()).toMatchObject({ expiresAt: T0 + 5 * MINUTE, refreshAt: T0 + 2.5 * MINUTE });
  });

  it('is not told to log out a session that a login replaced, nor a pair answered after the session ended', async () => {
    const owned = ownedTransport();
    owned.answers.push(owned.pair('p1'));
    const { session, onSessionEnd } = start(owned);
    await session.login('a@b.test', 'pw');
    let answerRefresh!: () => void;
    owned.answers.push(() => new Promise((resolve) => (answerRefresh = () => resolve(owned.pair('p2')()))));
    const refresh = session.refresh().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    // Another user: a login as the same one would continue the session instead.
    owned.answers.push(async () => ({ ...(await owned.pair('q1')()), user: { id: 'u_2', email: 'other@b.test' } }));
    await session.login('other@b.test', 'pw');
    answerRefresh();
    expect(await refresh).toMatchObject({ name: 'SessionEndedError', reason: 'replaced' });
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(owned.calls).toEqual(['login', 'refresh', 'login']);
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'replaced' }));
    // logout() itself is still sent.
    await session.logout();
    expect(owned.calls).toEqual(['login', 'refresh', 'login', 'logout']);
  });

  it('a refresh answered no-session while the session was still being found signs out quietly', async () => {
    const owned = ownedTransport();
    owned.answers.push(async () => Promise.reject(new SessionEndedError('no-session')));
    const store = createMemoryTokenStore({ accessToken: '', refreshToken: 'cookie' });
    const { session, onSessionEnd } = start(owned, { store });
    expect(session.getState().status).toBe('loading');
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
    expect(onSessionEnd).not.toHaveBeenCalled();
  });

  // Found following a newcomer's app: every signed-out visitor counted as a rejected refresh in an app's metrics.
  it('a first visit with no session reports its restore as no-session, not rejected', async () => {
    const owned = ownedTransport();
    owned.answers.push(async () => Promise.reject(new SessionEndedError('no-session')));
    const onRefresh = vi.fn();
    start(owned, { store: createMemoryTokenStore({ accessToken: '', refreshToken: 'cookie' }), onRefresh });
    await vi.advanceTimersByTimeAsync(0);
    expect(onRefresh.mock.calls).toEqual([
      [{ trigger: 'restore', outcome: 'no-session', error: expect.objectContaining({ reason: 'no-session' }) }],
    ]);
  });

  it('a refresh answered no-session in a live session ends it as rejected, and says so', async () => {
    const owned = ownedTransport();
    owned.answers.push(owned.pair('p1'), async () => Promise.reject(new SessionEndedError('no-session')));
    const { session, onSessionEnd } = start(owned);
    await session.login('a@b.test', 'pw');
    await expect(session.refresh()).rejects.toMatchObject({ reason: 'rejected' });
    expect(session.getState()).toMatchObject({ status: 'unauthenticated', error: { reason: 'rejected' } });
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'rejected' }));
  });

  it('a refresh answered "logged out" ends the session as a logout, without an error to show', async () => {
    const owned = ownedTransport();
    owned.answers.push(async () => Promise.reject(new SessionEndedError('logout')));
    const store = createMemoryTokenStore({ accessToken: '', refreshToken: 'cookie' });
    const { session, onSessionEnd } = start(owned, { store });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'logout' }));
  });

  it('while it is not known whether there is a session, a failing refresh shows loading with its retry, never a user without an id', async () => {
    const owned = ownedTransport();
    const down = async () => Promise.reject(new AuthRequestError('down', 'refresh', 503));
    owned.answers.push(down, down, owned.pair('p1'));
    const store = createMemoryTokenStore({ accessToken: '', refreshToken: 'cookie' });
    const { session } = start(owned, { store });
    const seen: unknown[] = [];
    session.subscribe(() => seen.push(session.getState()));
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState()).toMatchObject({ status: 'loading', user: null, retry: { attempt: 1 } });
    // The retries come at the 5 s floor.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(session.getState()).toMatchObject({ status: 'loading', user: null, retry: { attempt: 2 } });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    expect(seen.filter((state) => (state as { status: string }).status === 'authenticated')).toHaveLength(1);
    expect(owned.calls).toEqual(['refresh', 'refresh', 'refresh']);
  });
});
