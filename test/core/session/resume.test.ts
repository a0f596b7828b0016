// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenStore } from '../../../src';
import { browserResume } from '../../../src/core/environment/ResumeSource';
import { makePair } from '../../helpers/jwt';
import { loggedIn, setup, setupLinks, TIME, useTestClock } from '../../helpers/session';

// Refresh on resume (browserResume): the page coming back (focus, online, visible) renews a pair whose refresh is
// due. A file of its own: it runs in happy-dom, for the page's events.

const { T0, MINUTE } = TIME;

useTestClock();

describe('refresh on resume', () => {
  it.each(['focus', 'online', 'visibilitychange'])(
    'refreshes on %s once the proactive refresh is due, not before',
    async (event) => {
      const onRefresh = vi.fn();
      const { session, stub } = await loggedIn({ onRefresh, refreshOnResume: browserResume() });
      const fire = () => (event === 'visibilitychange' ? document : window).dispatchEvent(new Event(event));
      // Only the wall clock moves, as in a throttled background tab: the proactive timer does not run.
      vi.setSystemTime(T0 + 5 * MINUTE);
      fire();
      await Promise.resolve();
      expect(stub.of('refreshToken')).toHaveLength(0);
      vi.setSystemTime(T0 + 13 * MINUTE);
      fire();
      fire();
      await vi.waitFor(() => expect(onRefresh).toHaveBeenCalledWith({ trigger: 'resume', outcome: 'rotated' }));
      expect(stub.of('refreshToken')).toHaveLength(1);
      session.dispose();
      vi.setSystemTime(T0 + 40 * MINUTE);
      fire();
      await Promise.resolve();
      expect(stub.of('refreshToken')).toHaveLength(1);
    },
  );

  it("refreshes on a return from the back/forward cache (pageshow, persisted), not on the page's first pageshow", async () => {
    const onRefresh = vi.fn();
    const { session, stub } = await loggedIn({ onRefresh, refreshOnResume: browserResume() });
    // happy-dom has no PageTransitionEvent: an Event with the same field.
    const pageshow = (persisted: boolean) => window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
    // Away longer than the refresh's lead: timers and the token are as old as the time away.
    vi.setSystemTime(T0 + 14 * MINUTE);
    pageshow(false);
    await Promise.resolve();
    expect(stub.of('refreshToken')).toHaveLength(0);
    pageshow(true);
    await vi.waitFor(() => expect(onRefresh).toHaveBeenCalledWith({ trigger: 'resume', outcome: 'rotated' }));
    expect(stub.of('refreshToken')).toHaveLength(1);
    session.dispose();
  });

  it('listens to nothing without refreshOnResume', async () => {
    const onRefresh = vi.fn();
    const { session, stub } = await loggedIn({ onRefresh });
    vi.setSystemTime(T0 + 13 * MINUTE);
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
    await Promise.resolve();
    expect(stub.of('refreshToken')).toHaveLength(0);
    session.dispose();
  });

  it('stops listening to the page once unsubscribed', () => {
    const resume = vi.fn();
    const unsubscribe = browserResume()!.subscribe(resume);
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(resume).toHaveBeenCalledTimes(2);
    unsubscribe();
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(resume).toHaveBeenCalledTimes(2);
  });
});

describe('a resume source that calls back during subscribe', () => {
  it('is heard once the session exists: the stored session is restored, and later resumes still count', async () => {
    const resumes: (() => void)[] = [];
    const refreshOnResume = {
      subscribe(resume: () => void) {
        // Its type allows it: a source that reports the app active at once (React Native's AppState, say).
        resume();
        resumes.push(resume);
        return () => {};
      },
    };
    const onRefresh = vi.fn();
    const stored = makePair('stored');
    const { auth, stub } = setupLinks({ store: createMemoryTokenStore(stored), refreshOnResume, onRefresh });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    await expect(auth.getAccessToken()).resolves.toBe(stored.accessToken);
    expect(stub.calls).toHaveLength(0);
    // Only the wall clock moves, as in an app the system suspended: the proactive timer does not run.
    vi.setSystemTime(T0 + 13 * MINUTE);
    resumes[0]!();
    await vi.waitFor(() => expect(onRefresh).toHaveBeenCalledWith({ trigger: 'resume', outcome: 'rotated' }));
    expect(stub.of('refreshToken')).toHaveLength(1);
  });

  it('joins the read at start of an asynchronous store: the store is read once, and the session restored', async () => {
    const stored = makePair('stored');
    const get = vi.fn(() => Promise.resolve(stored));
    const refreshOnResume = { subscribe: (resume: () => void) => (resume(), () => {}) };
    const { session } = setup({ store: createTokenStore({ get, set: vi.fn(), clear: vi.fn() }), refreshOnResume });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    expect(get).toHaveBeenCalledTimes(1);
  });
});
