import { describe, expect, it, vi } from 'vitest';
import { createTokenHandlerTransport, SessionEndedError, type TokenAuthEvent } from '../../../src';
import { rejection } from '../../helpers/fetchStub';
import { makeJwt, makePair } from '../../helpers/jwt';
import { loggedIn, setup, TIME, useTestClock } from '../../helpers/session';

// adopt(pair, user?): a session begun from a pair the app already holds (an invitation link, a native SDK,
// another library), with no request while its access token is alive.

const { T0, MINUTE } = TIME;

useTestClock();

/** A pair of user u_5, issued `ago` ms before now, with the contract's 15-minute access token. */
const handedOver = (name: string, ago = 0) => {
  const iat = Math.floor((Date.now() - ago) / 1000);
  return {
    accessToken: makeJwt({ sub: 'u_5', email: 'invited@b.test', role: 'Cashier', iat, exp: iat + 900 }),
    refreshToken: `refresh-${name}`,
  };
};

describe('adopt a live pair', () => {
  it('begins the session with no request, timed by the token’s own exp, and stores the pair', async () => {
    const { session, stub, store } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const events: TokenAuthEvent[] = [];
    session.observe((event) => events.push(event));
    // Issued 5 minutes ago: 10 minutes left, so the proactive refresh is due 2.5 minutes before they end.
    const pair = handedOver('invite', 5 * MINUTE);

    const { user } = await session.adopt(pair);
    expect(user).toMatchObject({ id: 'u_5', email: 'invited@b.test', role: 'Cashier' });
    expect(session.getState()).toMatchObject({
      status: 'authenticated',
      expiresAt: T0 + 10 * MINUTE,
      refreshAt: T0 + 10 * MINUTE - 150_000,
    });
    expect(await store.get()).toEqual(pair);
    expect(events.at(-1)).toMatchObject({ type: 'login', via: 'adopt', user: { id: 'u_5' } });

    // Nothing goes out until the proactive refresh, which spends the adopted refresh token once.
    await vi.advanceTimersByTimeAsync(7.5 * MINUTE - 1);
    expect(stub.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-invite']);
  });

  it('takes what the app knows of the user over the claims', async () => {
    const { session } = setup();
    const { user } = await session.adopt(handedOver('a'), { id: 'u_5', email: 'known@b.test' });
    expect(user).toMatchObject({ id: 'u_5', email: 'known@b.test', role: 'Cashier' });
  });

  it('replaces another user’s session and revokes its pair; handed the same pair again, changes nothing', async () => {
    const { session, stub, onSessionEnd } = await loggedIn();
    const pair = handedOver('invite');
    await session.adopt(pair);
    await session.adopt(pair);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).toEqual(['refresh-p1']);
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(session.getState().user?.id).toBe('u_5');
  });
});

describe('adopt a dead pair', () => {
  it('renews it once, at once, and resolves when the renewed pair is in use', async () => {
    const { session, stub, onSessionEnd } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const events: TokenAuthEvent[] = [];
    session.observe((event) => events.push(event));
    const adopting = session.adopt(handedOver('old', 20 * MINUTE));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-old']);
    stub.last('refreshToken').respond({ data: { refreshToken: handedOver('renewed') } });
    await expect(adopting).resolves.toMatchObject({ user: { id: 'u_5' } });
    expect(session.getState()).toMatchObject({ status: 'authenticated', expiresAt: T0 + 15 * MINUTE });
    expect(stub.calls).toHaveLength(1);
    expect(events.filter((event) => event.type === 'refresh')).toMatchObject([
      { trigger: 'adopt', outcome: 'rotated' },
    ]);
    expect(onSessionEnd).not.toHaveBeenCalled();
  });

  it('rejects when its refresh token is refused, and the session ends as rejected', async () => {
    const { session, stub } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const adopting = session.adopt(handedOver('spent', 20 * MINUTE)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN', 'Refresh token already used'));
    const error = await adopting;
    expect(SessionEndedError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'rejected' });
    expect(session.getState().status).toBe('unauthenticated');
    expect(stub.of('refreshToken')).toHaveLength(1);
  });
});

describe('adopt a pair that cannot be used', () => {
  it.each([
    ['no access token', { refreshToken: 'r' }, 'a pair without an accessToken'],
    ['no refresh token', { accessToken: makePair('x').accessToken }, 'a pair without a refreshToken'],
    [
      'an access token that is not a JWT',
      { accessToken: 'abc', refreshToken: 'r' },
      'whose accessToken is not a valid JWT',
    ],
    [
      'an access token without exp',
      { accessToken: makeJwt({ sub: 'u_1' }), refreshToken: 'r' },
      'accessToken has no exp claim',
    ],
  ])('rejects %s with a TypeError that says so, and keeps the current session', async (_name, pair, words) => {
    const { session, stub, store } = await loggedIn();
    const before = await store.get();
    const error = await session.adopt(pair as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(words);
    expect(await store.get()).toEqual(before);
    expect(session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' }, error });
    expect(stub.calls).toEqual([]);
  });

  it('refuses behind a token handler, naming the handler’s way, and sends nothing', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json({ error: { code: 'NO_SESSION' } }));
    const { session } = setup({ transport: createTokenHandlerTransport('/auth', { fetch }) });
    await vi.advanceTimersByTimeAsync(0);
    fetch.mockClear();
    await expect(session.adopt(handedOver('x'))).rejects.toThrow(
      'hand the pair to `handler.adopt(request, pair)` on your server',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
