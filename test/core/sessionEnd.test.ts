import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  shareTokenStore,
  type TokenAuthOptions,
  type TokenAuthTransport,
  type TokenStore,
} from '../../src';
import { createTokenSession } from '../../src/core/session/TokenSession';
import { revoked, service } from '../helpers/jwtService';
import { TIME } from '../helpers/session';

const { T0, MINUTE } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

function start(transport: TokenAuthTransport, options: Partial<TokenAuthOptions> = {}) {
  const onSessionEnd = vi.fn();
  const session = createTokenSession({ transport, refreshOnResume: false, onSessionEnd, ...options });
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
