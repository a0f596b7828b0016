import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, type RefreshEvent } from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { MINUTE } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('createTestClock', () => {
  it('runs due timers in time order, each at its own time, and the same time in scheduling order', async () => {
    const clock = createTestClock({ now: new Date('2026-01-01T00:00:00Z') });
    const t0 = clock.now();
    const ran: Array<[string, number]> = [];
    const at = (name: string) => () => ran.push([name, clock.now() - t0]);
    clock.setTimeout(at('c'), 300);
    clock.setTimeout(at('a'), 100);
    clock.setTimeout(at('b'), 100);
    const cancelled = clock.setTimeout(at('never'), 200);
    clock.clearTimeout(cancelled);
    expect(clock.pending).toBe(3);

    await clock.advance(250);
    expect(ran).toEqual([
      ['a', 100],
      ['b', 100],
    ]);
    expect(clock.now() - t0).toBe(250);
    await clock.advanceTo(new Date(t0 + 300));
    expect(ran.at(-1)).toEqual(['c', 300]);
    expect(clock.pending).toBe(0);
  });

  it('runs a timer scheduled by a timer when it falls due within the same advance', async () => {
    const clock = createTestClock({ now: 0 });
    const ran: number[] = [];
    const tick = () => {
      ran.push(clock.now());
      if (ran.length < 5) clock.setTimeout(tick, 10);
    };
    clock.setTimeout(tick, 10);
    await clock.advance(35);
    expect(ran).toEqual([10, 20, 30]);
    await clock.advance(100);
    expect(ran).toEqual([10, 20, 30, 40, 50]);
  });

  it('never goes backwards, and a zero or negative delay runs at the next advance', async () => {
    const clock = createTestClock({ now: 1_000 });
    await clock.advanceTo(500);
    expect(clock.now()).toBe(1_000);
    const ran = vi.fn();
    clock.setTimeout(ran, -5);
    expect(ran).not.toHaveBeenCalled();
    await clock.advance(0);
    expect(ran).toHaveBeenCalledOnce();
  });

  it('waits for tracked work a timer started before it runs the next timer', async () => {
    const clock = createTestClock({ now: 0 });
    const seen: string[] = [];
    clock.setTimeout(() => {
      seen.push('request sent');
      // Real time: the answer arrives after a real delay, as from a server.
      clock.track(new Promise<void>((resolve) => setTimeout(() => resolve(void seen.push('answered')), 30)));
    }, 10);
    clock.setTimeout(() => seen.push('timeout fired'), 20);
    await clock.advance(100);
    expect(seen).toEqual(['request sent', 'answered', 'timeout fired']);
  });

  it('is not moved by vitest fake timers, and advance() works while they are installed', async () => {
    const clock = createTestClock({ now: 0 });
    vi.useFakeTimers();
    const ran = vi.fn();
    clock.setTimeout(ran, 1_000);
    vi.advanceTimersByTime(60 * MINUTE);
    expect([ran.mock.calls.length, clock.now()]).toEqual([0, 0]);
    await clock.advance(1_000);
    expect([ran.mock.calls.length, clock.now()]).toEqual([1, 1_000]);
  });
});

describe('createTestClock where there is no setImmediate (a browser, jest-environment-jsdom)', () => {
  it('advance() still yields to the event loop while fake timers are installed', async () => {
    const setImmediateWas = globalThis.setImmediate;
    vi.resetModules();
    // @ts-expect-error: removed for this test, as those environments have none
    delete globalThis.setImmediate;
    try {
      const { createTestClock: withoutImmediate } = await import('../../src/testing/createTestClock');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const clock = withoutImmediate();
      let ran = 0;
      clock.setTimeout(() => clock.track(Promise.resolve().then(() => ran++)), 1_000);
      await clock.advance(1_000);
      expect(ran).toBe(1);
    } finally {
      globalThis.setImmediate = setImmediateWas;
      vi.resetModules();
    }
  });
});

describe('a session and a test server on one test clock', () => {
  async function signedIn() {
    const clock = createTestClock();
    const server = createTestAuthServer({ clock });
    const refreshes: RefreshEvent[] = [];
    const auth = createTokenAuth({
      uri: '/graphql',
      fetch: server.fetch,
      clock,
      refreshOnResume: false,
      onRefresh: (event) => refreshes.push(event),
    });
    await auth.login('admin@demo.test', 'admin-pass');
    return { clock, server, auth, refreshes };
  }

  it('renews each 15-minute token 2.5 minutes before it expires, and each refresh settles before its 30 s timeout', async () => {
    const { clock, server, auth, refreshes } = await signedIn();
    const loggedInAt = clock.now();
    await clock.advance(12.5 * MINUTE - 1);
    expect(server.stats.refreshCalls).toBe(0);
    await clock.advance(1);
    expect(server.stats.refreshSuccesses).toBe(1);
    expect(auth.getState().expiresAt).toBe(loggedInAt + 12.5 * MINUTE + 15 * MINUTE);

    // Hours at once: every refresh is answered before the clock moves on to its timeout.
    await clock.advance(4 * 60 * MINUTE);
    expect(refreshes.every((event) => event.trigger === 'proactive' && event.outcome === 'rotated')).toBe(true);
    expect(refreshes).toHaveLength(1 + Math.floor((4 * 60) / 12.5));
    expect(server.stats).toMatchObject({ refreshSuccesses: refreshes.length, tokenExpired: 0, reuseDetections: 0 });
    auth.dispose();
    expect(clock.pending).toBe(0);
  });

  it('works the same with vitest fake timers installed', async () => {
    const { clock, server, auth, refreshes } = await signedIn();
    vi.useFakeTimers();
    await clock.advance(60 * MINUTE);
    expect(refreshes.map((event) => event.outcome)).toEqual(['rotated', 'rotated', 'rotated', 'rotated']);
    expect(server.stats.refreshSuccesses).toBe(4);
    auth.dispose();
  });

  it('a refresh slowed by faults.delayMs is waited for in network time, with fake timers installed', async () => {
    const { clock, server, auth } = await signedIn();
    vi.useFakeTimers();
    server.faults.delayMs['refreshToken'] = 50;
    await clock.advance(15 * MINUTE);
    expect(server.stats.refreshSuccesses).toBe(1);
    expect(auth.getState().retry).toBeUndefined();
    auth.dispose();
  });

  it('does not wait for a refresh the server hangs on purpose: its timeout fires and the retry is scheduled', async () => {
    const { clock, server, auth } = await signedIn();
    server.faults.hangRefresh = true;
    await clock.advance(12.5 * MINUTE + 31_000); // the refresh's timeout, and its second of grace
    expect(auth.getState()).toMatchObject({
      status: 'authenticated',
      retry: { attempt: 1, error: { name: 'AuthRequestError' } },
    });
    server.faults.hangRefresh = false;
    await clock.advance(60_000);
    expect(auth.getState().retry).toBeUndefined();
    expect(server.stats).toMatchObject({ refreshCalls: 2, refreshSuccesses: 1 });
    auth.dispose();
    await server.close();
  });
});
