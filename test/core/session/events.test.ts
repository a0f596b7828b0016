import { describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, shareTokenStore, type Lock, type TokenAuthEvent } from '../../../src';
import { rejection } from '../../helpers/fetchStub';
import { execute } from '../../helpers/links';
import {
  loggedIn,
  loggedInLinks,
  refreshCount,
  setup,
  setupLinks,
  tick,
  TIME,
  twoLinkedTabs,
  useTestClock,
  watch,
} from '../../helpers/session';

// What `auth.observe` tells: the one stream the devtools and the logger read, with the contract's 15-minute access
// tokens on the test clock. No event carries a token.

const { T0, MINUTE } = TIME;

useTestClock();

/** The events `auth` tells from now on (and the ones it kept), and the tokens seen so far, to look for in them. */
function record(auth: { observe(observer: (event: TokenAuthEvent) => void): () => void }) {
  const events: TokenAuthEvent[] = [];
  const stop = auth.observe((event) => events.push(event));
  return { events, stop, types: () => events.map((event) => event.type) };
}

describe('auth.observe: a session’s life as events', () => {
  it('tells a login, the proactive refresh 12.5 minutes later, a burst after TOKEN_EXPIRED (one refresh, each replay) and the logout, in order and timed', async () => {
    const { auth, stub, server, link } = setupLinks();
    const { events, types } = record(auth);
    await auth.login('a@b.test', 'pw');
    expect(events[0]).toMatchObject({ type: 'login', user: { id: 'u_1', email: 'a@b.test' }, at: T0 });

    // The 15-minute token is renewed 2.5 minutes before it expires (the default lead), by the timer.
    stub.auto = false;
    await tick(12.5 * MINUTE);
    expect(refreshCount(stub)).toBe(1);
    await tick(1200);
    stub.last('refreshToken').respond({ data: { refreshToken: stub.nextPair() } });
    await tick();
    expect(events.at(-1)).toMatchObject({
      type: 'refresh',
      trigger: 'proactive',
      outcome: 'rotated',
      ms: 1200,
      at: T0 + 12.5 * MINUTE + 1200,
    });

    // The server kills the token: three operations bounce, one refresh, three replays.
    const token = (await auth.getAccessToken())!;
    server.expired.add(token);
    const runs = [execute(link), execute(link), execute(link)];
    await tick();
    expect(refreshCount(stub)).toBe(2);
    stub.last('refreshToken').respond({ data: { refreshToken: stub.nextPair() } });
    await tick();
    expect(runs.every((run) => run.completed)).toBe(true);
    expect(types().slice(2)).toEqual(['refresh', 'replayed', 'replayed', 'replayed']);
    expect(events[2]).toMatchObject({ type: 'refresh', trigger: 'token-expired', outcome: 'rotated' });
    expect(events[3]).toMatchObject({ type: 'replayed', operation: 'Me' });

    const tokens = [token, (await auth.getAccessToken())!];
    stub.auto = true;
    await auth.logout();
    expect(events.at(-1)).toMatchObject({ type: 'end', reason: 'logout', elsewhere: false });
    // Every token the session held: the access tokens, and the refresh tokens it sent.
    tokens.push(...stub.calls.flatMap((call) => Object.values(call.variables)).filter((value) => value.length > 8));
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const told = JSON.stringify(events);
    for (const each of tokens) expect(told).not.toContain(each);
  });

  it('tells a refused refresh token as a rejected refresh, then the end with the server’s words', async () => {
    const { auth, stub } = await loggedInLinks();
    const { events } = record(auth);
    events.length = 0;
    const refresh = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').respond(rejection('REFRESH_TOKEN_REVOKED', 'This session was revoked.'));
    await tick();
    expect(refresh.error).toMatchObject({ name: 'SessionEndedError' });
    expect(events.map((event) => event.type)).toEqual(['end', 'refresh']);
    expect(events[0]).toMatchObject({ type: 'end', reason: 'rejected', message: expect.any(String) });
    expect(events[1]).toMatchObject({ type: 'refresh', trigger: 'manual', outcome: 'rejected' });
  });

  it('tells a failed login with the server’s refusal', async () => {
    const { auth, stub } = setupLinks({}, undefined, false);
    const { events } = record(auth);
    const login = watch(auth.login('a@b.test', 'wrong'));
    await tick();
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS', 'Wrong e-mail or password.'));
    await tick();
    expect(login.error).toMatchObject({ name: 'AuthRejectedError' });
    expect(events).toEqual([
      {
        type: 'login',
        via: 'login',
        error: expect.objectContaining({ message: expect.stringContaining('Wrong e-mail or password.') }),
        at: T0,
      },
    ]);
  });

  it('tells a refresh that fails on the network, and its retry with when it goes', async () => {
    const { auth, stub } = await loggedInLinks();
    const { events, types } = record(auth);
    events.length = 0;
    await tick(12.5 * MINUTE);
    stub.last('refreshToken').fail();
    await tick();
    expect(types()).toEqual(['retry', 'error', 'refresh']);
    const retry = events[0] as Extract<TokenAuthEvent, { type: 'retry' }>;
    expect(retry).toMatchObject({ attempt: 1, error: expect.objectContaining({ name: 'AuthRequestError' }) });
    expect(retry.until).toBeGreaterThan(T0 + 12.5 * MINUTE);
    expect(events[2]).toMatchObject({ type: 'refresh', trigger: 'proactive', outcome: 'failed' });
  });

  it('tells an operation held for a pair while the dead token is renewed, by its name', async () => {
    const { auth, stub, link } = await loggedInLinks();
    const { events } = record(auth);
    events.length = 0;
    // A machine that slept through the token's life: no timer fired, the token is dead by the clock.
    vi.setSystemTime(Date.now() + 20 * MINUTE);
    const run = execute(link);
    await tick();
    expect(events).toEqual([{ type: 'held', operation: 'Me', at: T0 + 20 * MINUTE }]);
    stub.last('refreshToken').respond({ data: { refreshToken: stub.nextPair() } });
    await tick();
    expect(run.completed).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'refresh', trigger: 'expired-locally', outcome: 'rotated' });
  });

  it('tells a wait for the refresh floor, with what asked and until when', async () => {
    const { session } = await loggedIn();
    const { events } = record(session);
    // Two refreshes within a second: the third, for a refused token, waits for the 5-s floor.
    await session.refresh();
    await session.recover((await session.current())!);
    events.length = 0;
    const third = session.recover((await session.current())!);
    await tick();
    expect(events[0]).toMatchObject({ type: 'floor', trigger: 'token-expired', at: T0 });
    const { until } = events[0] as Extract<TokenAuthEvent, { type: 'floor' }>;
    expect(until).toBeGreaterThan(T0);
    await tick(until - T0);
    await third;
    expect(events.at(-1)).toMatchObject({
      type: 'refresh',
      trigger: 'token-expired',
      outcome: 'rotated',
      ms: until - T0,
    });
  });

  it('tells the tab that follows a login elsewhere the user it followed', async () => {
    const { a, b, stub } = await twoLinkedTabs(shareTokenStore(createMemoryTokenStore()));
    const seen = record(b.auth);
    expect(seen.events.find((event) => event.type === 'followed')).toMatchObject({ user: { id: 'u_1' } });
    stub.auto = true;
    await a.auth.logout();
    await tick();
    expect(seen.events.at(-1)).toMatchObject({ type: 'end', reason: 'logout', elsewhere: true });
  });

  it('tells a refresh that waited for the lock another tab held, and for how long', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    // The first grant is held by "another tab" until the test releases it.
    const lock: Lock = async (_name, task) => {
      if (first) {
        first = false;
        await held;
      }
      return task();
    };
    const { session } = setup({ auto: true, store: shareTokenStore(createMemoryTokenStore(), { lock }) });
    const { events } = record(session);
    const login = session.login('a@b.test', 'pw');
    await tick(800);
    release();
    await login;
    await tick();
    expect(events.find((event) => event.type === 'lock')).toEqual({ type: 'lock', ms: 800, at: T0 + 800 });
  });
});

describe('auth.observe: observers', () => {
  it('gives an observer that comes later the last 100 events at once, oldest first, then each new one', async () => {
    const { auth, stub } = await loggedInLinks();
    stub.auto = true;
    for (let i = 0; i < 120; i++) await auth.refresh();
    const late = record(auth);
    expect(late.events).toHaveLength(100);
    expect(late.events[0]?.at).toBeLessThanOrEqual(late.events[99]!.at);
    expect(late.types().every((type) => type === 'refresh')).toBe(true);
    await auth.logout();
    expect(late.events).toHaveLength(101);
    late.stop();
    await auth.login('a@b.test', 'pw');
    expect(late.events).toHaveLength(101);
  });

  it('hands what an observer throws to onError, once, and goes on', async () => {
    const onError = vi.fn();
    const { auth, stub } = setupLinks({ onError });
    const fine = record(auth);
    auth.observe(() => {
      throw new Error('observer broke');
    });
    await auth.login('a@b.test', 'pw');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(new Error('observer broke'));
    expect(fine.types()).toEqual(['login']);
    expect(auth.getState().status).toBe('authenticated');
    expect(refreshCount(stub)).toBe(0);
  });
});
