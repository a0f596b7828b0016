import { describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  SessionEndedError,
  createTokenStore,
  shareTokenStore,
  type TokenAuthOptions,
  type TokenAuthTransport,
  type TokenPair,
  type TokenStore,
} from '../../../src';
import { rejection, type StubCall } from '../../helpers/fetchStub';
import { makePair } from '../../helpers/jwt';
import { revoked, service } from '../../helpers/jwtService';
import {
  accessTokenOf,
  loggedIn,
  loggedInLinks,
  loginAsB,
  refreshCount,
  setup,
  tick,
  TIME,
  useTestClock,
  watch,
} from '../../helpers/session';

// Logout and the end of a session: logout() ends it at once and revokes its newest pair, whatever is under way; how a
// session ended (state.ended, onSessionEnd), here or in another tab; no live pair left behind.

const { T0, MINUTE } = TIME;

useTestClock();

/** The refresh tokens that logout requests revoked, in the order they were sent. */
const revokedTokens = (calls: StubCall[]) =>
  calls.filter((call) => call.field === 'logout').map((call) => call.variables.refreshToken);

describe('logout', () => {
  it('ends the session at once, then revokes the refresh token on the server', async () => {
    const { session, stub, store, onSessionEnd } = await loggedIn({ auto: false });
    const pair = (await store.get())!;
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    expect(accessTokenOf(session)).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('logout').variables).toEqual({ refreshToken: pair.refreshToken });
    stub.answer(stub.last('logout'));
    await logout;
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledWith({ reason: 'logout', elsewhere: false });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves and ends the session even when the server cannot be reached', async () => {
    const { session, stub, store, onError } = await loggedIn({ auto: false });
    const logout = session.logout();
    await vi.advanceTimersByTimeAsync(0);
    stub.last('logout').fail();
    await expect(logout).resolves.toBeUndefined();
    expect(await store.get()).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'logout' }));
  });

  it('during a refresh: waiters fail, the late pair is revoked, never stored, and cannot revive the session', async () => {
    const { session, stub, store } = await loggedIn({ auto: false });
    const waiter = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const logout = session.logout();
    const late = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: late } });
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('logout').variables).toEqual({ refreshToken: late.refreshToken });
    stub.answer(stub.last('logout'));
    await logout;
    expect(await waiter).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    expect(session.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    expect(accessTokenOf(session)).toBeNull();
  });

  it('sends one logout request, for the stored pair, when logout() is called twice while the store is still being read', async () => {
    const stored = makePair('stored');
    let finishRead!: (pair: TokenPair) => void;
    const store = createTokenStore({
      get: () => new Promise<TokenPair | null>((resolve) => (finishRead = resolve)),
      set: () => {},
      clear: () => {},
    });
    const { session, stub, onSessionEnd } = setup({ store, auto: true });
    expect(session.getState().status).toBe('loading');

    const first = session.logout();
    const second = session.logout();
    finishRead(stored);
    await Promise.all([first, second]);
    await vi.advanceTimersByTimeAsync(0);

    expect(revokedTokens(stub.calls)).toEqual(['refresh-stored']);
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
    // Nothing had been restored, so no session was live to end.
    expect(onSessionEnd).not.toHaveBeenCalled();
  });
});

describe('logout while the stored pair is restored', () => {
  it('does not end a login that completed after it', async () => {
    const dead = makePair('dead', { now: T0 - 20 * MINUTE });
    const { session, stub, store } = setup({ store: createMemoryTokenStore(dead) });
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    stub.auto = true;
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    // The login's pair is stored under the lock, after the refresh that holds it.
    stub.answer(stub.last('refreshToken'));
    await login;
    await logout;
    expect(session.getState().status).toBe('authenticated');
    // The login got p1; the restored session's rotation, answered later, got p2, and p2 is what is revoked.
    expect(stub.last('logout').variables.refreshToken).toBe('refresh-p2');
    expect((await store.get())!.refreshToken).toBe('refresh-p1');
  });

  it('revokes the stored pair when the store is still being read', async () => {
    let answer!: (pair: unknown) => void;
    const stored = makePair('stored');
    const slow = new Promise((r) => (answer = r));
    const store = createTokenStore({ get: () => slow as never, set: vi.fn(), clear: vi.fn() });
    const { session, stub } = setup({ store, auto: true });
    const logout = session.logout();
    answer(stored);
    await logout;
    expect(stub.last('logout').variables.refreshToken).toBe(stored.refreshToken);
    expect(session.getState().status).toBe('unauthenticated');
  });
});

describe('logout while a refresh is storing its pair', () => {
  it('fails the waiters with SessionEndedError and keeps the store empty', async () => {
    let release!: () => void;
    let pair: unknown = null;
    const store = createTokenStore({
      get: () => pair as never,
      set: (next) =>
        new Promise<void>(
          (r) =>
            (release = () => {
              pair = next;
              r();
            }),
        ),
      clear: () => {
        pair = null;
      },
    });
    const { session, stub } = setup({ store, auto: true });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    release();
    await login;
    const waiter = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    release();
    await logout;
    expect(await waiter).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    await vi.advanceTimersByTimeAsync(0);
    expect(pair).toBeNull();
    expect(accessTokenOf(session)).toBeNull();
  });

  it('rejects a refresh after a rejection with no second request', async () => {
    const { session, stub } = await loggedIn({ auto: false });
    const first = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await first;
    expect(await session.refresh().catch((e: unknown) => e)).toMatchObject({ reason: 'no-session' });
    expect(stub.of('refreshToken')).toHaveLength(1);
  });
});

describe('no live session left behind, nothing sent twice', () => {
  it("revokes the replaced pair's refresh token when someone else logs in", async () => {
    const store = createMemoryTokenStore();
    const { auth, stub } = await loggedInLinks({ store });
    const replaced = (await store.get())!;
    const login = await loginAsB(auth, stub);
    expect(login).toMatchObject({ settled: true, error: undefined });
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken: replaced.refreshToken }]);
    expect(auth.getState().user?.id).toBe('u_2');
    expect(refreshCount(stub)).toBe(0);
  });

  it('revokes the refresh token of a refresh answer whose access token is not a JWT, and ends the session', async () => {
    const { auth, stub } = await loggedInLinks();
    const refresh = watch(auth.refresh());
    await tick();
    stub.auto = true;
    stub.last('refreshToken').respond({ data: { refreshToken: { accessToken: 'not-a-jwt', refreshToken: 'r-new' } } });
    await tick();
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken: 'r-new' }]);
    expect(refresh.error).toMatchObject({ name: 'SessionEndedError' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(refreshCount(stub)).toBe(1);
  });

  it('sends one logout request for two concurrent logout() calls', async () => {
    const store = createMemoryTokenStore();
    const { auth, stub } = await loggedInLinks({ store });
    const { refreshToken } = (await store.get())!;
    stub.auto = true;
    const logouts = [watch(auth.logout()), watch(auth.logout())];
    await tick();
    for (const logout of logouts) expect(logout).toMatchObject({ settled: true, error: undefined });
    expect(stub.of('logout').map((call) => call.variables)).toEqual([{ refreshToken }]);
    expect(auth.getState().status).toBe('unauthenticated');
  });
});

/** A session on `transport`, with no resume, and its onSessionEnd spy. */
function start(transport: TokenAuthTransport, options: Partial<TokenAuthOptions> = {}) {
  const { session, onSessionEnd } = setup({ transport, refreshOnResume: false, onError: undefined, ...options });
  return { session, onSessionEnd };
}

/** Two sessions (two tabs) on one shared store, A logged in as u_1 and B following it. */
async function twoTabs(store: TokenStore = shareTokenStore(createMemoryTokenStore())) {
  const { transport, control } = service();
  const a = start(transport, { store });
  const b = start(transport, { store });
  await a.session.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(0);
  expect(b.session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
  return { a, b, control };
}

describe('how a session ended (state.ended and onSessionEnd)', () => {
  it('a logout here: reason logout, not elsewhere, at the time it happened', async () => {
    const { session, onSessionEnd } = start(service().transport);
    await session.login('a@b.test', 'pw');
    expect(session.getState().ended).toBeUndefined();
    vi.advanceTimersByTime(MINUTE);
    await session.logout();
    expect(session.getState()).toEqual({
      status: 'unauthenticated',
      user: null,
      ended: { reason: 'logout', elsewhere: false, at: T0 + MINUTE },
    });
    expect(onSessionEnd).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
  });

  it('a logout in another tab sharing the store: reason logout, elsewhere', async () => {
    const { a, b } = await twoTabs();
    await a.session.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.session.getState().ended).toEqual({ reason: 'logout', elsewhere: false, at: T0 });
    expect(b.session.getState()).toEqual({
      status: 'unauthenticated',
      user: null,
      ended: { reason: 'logout', elsewhere: true, at: T0 },
    });
    expect(b.onSessionEnd).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: true });
  });

  it('a login as someone else in another tab: replaced, elsewhere, and the state already shows the new user', async () => {
    const { a, b } = await twoTabs();
    await a.session.login('c@d.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    expect(b.session.getState()).toMatchObject({
      status: 'authenticated',
      user: { id: 'u_2' },
      ended: { reason: 'replaced', elsewhere: true, at: T0 },
    });
    expect(b.onSessionEnd).toHaveBeenCalledExactlyOnceWith({ reason: 'replaced', elsewhere: true });
    // A login here replaced A's own session: that is no end to show.
    expect(a.session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_2' } });
    expect(a.session.getState().ended).toBeUndefined();
    expect(a.onSessionEnd).toHaveBeenCalledExactlyOnceWith({ reason: 'replaced', elsewhere: false });
  });

  it('a login as the same user in another tab is followed silently: the new pair, no end', async () => {
    const { a, b } = await twoTabs();
    const before = await b.session.getAccessToken();
    await a.session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    const after = await b.session.getAccessToken();
    expect(after).not.toBe(before);
    expect(after).toBe(await a.session.getAccessToken());
    expect(b.session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    expect(b.session.getState().ended).toBeUndefined();
    expect(b.onSessionEnd).not.toHaveBeenCalled();
  });

  it('keeps the end until the next login, whether here or followed from another tab', async () => {
    const { a, b } = await twoTabs();
    await a.session.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.session.getState().ended?.reason).toBe('logout');
    await a.session.refresh().catch(() => {});
    expect(a.session.getState().ended?.reason).toBe('logout');
    await a.session.login('c@d.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_2' } });
    expect(a.session.getState().ended).toBeUndefined();
    expect(b.session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_2' } });
    expect(b.session.getState().ended).toBeUndefined();
  });

  it('a refresh token the service revoked: rejected, revoked', async () => {
    const { transport, control } = service();
    const { session, onSessionEnd } = start(transport);
    await session.login('a@b.test', 'pw');
    control.refuse = revoked();
    vi.advanceTimersByTime(MINUTE);
    await expect(session.refresh()).rejects.toMatchObject({ reason: 'rejected' });
    expect(session.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: {
        reason: 'rejected',
        elsewhere: false,
        rejection: 'revoked',
        message: control.refuse.message,
        at: T0 + MINUTE,
      },
    });
    expect(onSessionEnd).toHaveBeenCalledExactlyOnceWith({
      reason: 'rejected',
      elsewhere: false,
      rejection: 'revoked',
      message: control.refuse.message,
      error: control.refuse,
    });
  });

  it("a refresh token past its exp: rejected, expired, by the client's clock corrected by the server's skew", async () => {
    // The server's clock is an hour ahead; its refresh token lives 10 minutes. At the proactive refresh, 14
    // minutes in, the token would still have 56 minutes left by the client's raw clock.
    const { transport, control } = service({ refreshLife: 10 * MINUTE, serverAhead: 60 * MINUTE });
    const { session } = start(transport, { refreshLeadTime: 60_000 });
    await session.login('a@b.test', 'pw');
    control.refuse = revoked();
    await vi.advanceTimersByTimeAsync(14 * MINUTE);
    expect(control.refreshes).toBe(1);
    expect(session.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', rejection: 'expired', at: T0 + 14 * MINUTE },
    });
  });

  it("a token handler's SESSION_EXPIRED: rejected, expired", async () => {
    const { transport, control } = service();
    const { session, onSessionEnd } = start({ ...transport, ownsSession: true });
    await session.login('a@b.test', 'pw');
    control.refuse = new AuthRejectedError('The session has expired: sign in again.', 'refresh', [
      { message: 'expired', extensions: { code: 'SESSION_EXPIRED' } },
    ]);
    await session.refresh().catch(() => {});
    expect(session.getState().ended).toMatchObject({ reason: 'rejected', rejection: 'expired' });
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ rejection: 'expired' }));
  });

  it('a rejection found by another tab ends this one as rejected too, not as something done elsewhere', async () => {
    const { a, b, control } = await twoTabs();
    control.refuse = revoked();
    await a.session.refresh().catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(b.session.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', elsewhere: false, rejection: 'revoked' },
    });
  });

  it('no end is kept for a logout with nobody signed in, and a failed refresh keeps the session, with its retry', async () => {
    const { transport, control } = service();
    const { session, onSessionEnd } = start(transport, { retryDelay: 5_000 });
    await session.logout();
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
    await session.login('a@b.test', 'pw');
    control.refuse = new AuthRequestError('refreshToken failed on the network.', 'refreshToken');
    await session.refresh().catch(() => {});
    expect(session.getState()).toMatchObject({ status: 'authenticated', retry: { at: T0 + 5_000, attempt: 1 } });
    expect(session.getState().ended).toBeUndefined();
    control.refuse = undefined;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(session.getState().retry).toBeUndefined();
    expect(onSessionEnd).not.toHaveBeenCalled();
  });
});

// The end of a session releases every wait, as a login that replaces it and dispose() do: a caller of refresh()
// and an operation waiting on the ended session's refresh settle at once, not when that refresh comes back.
describe("the end of a session ends every wait on its refresh (the contract's 15-minute tokens)", () => {
  it('a refresh() caller fails at once with SessionEndedError("logout") when the session is logged out', async () => {
    const { session, stub } = await loggedIn({ auto: false, lifetimeSeconds: 900 });
    let settled: unknown;
    const refreshing = session.refresh().catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const loggingOut = session.logout();
    await vi.advanceTimersByTimeAsync(0);
    // The refresh is still on the wire: its answer has not come.
    expect(stub.last('refreshToken').settled).toBe(false);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('logout');
    stub.answer(stub.last('refreshToken'));
    await vi.advanceTimersByTimeAsync(0);
    stub.answer(stub.last('logout'));
    await loggingOut;
    await refreshing;
    // The logout revoked the pair the refresh brought, the newest.
    expect(stub.last('logout').variables.refreshToken).toBe('refresh-p2');
  });

  it('an operation whose token died waits on the refresh, and fails at once when the session is logged out', async () => {
    const { session, stub } = await loggedIn({ auto: false, lifetimeSeconds: 900 });
    vi.setSystemTime(TIME.T0 + 15 * TIME.MINUTE);
    let settled: unknown;
    const operation = Promise.resolve(accessTokenOf(session)).catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    void session.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('refreshToken').settled).toBe(false);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('logout');
    stub.answer(stub.last('refreshToken'));
    await operation;
  });
});
