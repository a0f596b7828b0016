import { describe, expect, it, vi } from 'vitest';
import type { TokenAuth, TokenAuthState } from '../../src';
import { createShownState } from '../../src/react/createShownState';

const SIGNED_OUT: TokenAuthState = { status: 'unauthenticated', user: null };
const ADMIN = { status: 'authenticated', user: { id: 'u_admin' } } as TokenAuthState;
const CASHIER = { status: 'authenticated', user: { id: 'u_cashier' } } as TokenAuthState;
const OWNER = { status: 'authenticated', user: { id: 'u_owner' } } as TokenAuthState;

/** A session whose state the test sets, and the shown state around it, with a screen that reads it when told. */
function shownOf(initial: TokenAuthState, serverState?: TokenAuthState) {
  let state = initial;
  const auth = { getState: () => state } as unknown as TokenAuth;
  const shown = createShownState(auth, serverState);
  const screen: TokenAuthState[] = [];
  const stop = shown.subscribe(() => screen.push(shown.get()));
  // The session changes, and the provider tells the shown state once it has decided what the store does.
  const change = (next: TokenAuthState, decide = () => {}) => {
    state = next;
    decide();
    shown.changed();
  };
  return { shown, screen, change, stop };
}

/** A reset still running, and the function that ends it (with the microtasks that follow). */
function running() {
  let done!: () => void;
  const reset = new Promise<void>((resolve) => (done = resolve));
  return { reset, done: async () => (done(), await reset, await Promise.resolve()) };
}

describe('createShownState', () => {
  it("shows the session's state, and tells each change, while nothing is held", () => {
    const { shown, screen, change } = shownOf(SIGNED_OUT);

    change(ADMIN);

    expect(shown.get()).toBe(ADMIN);
    expect(screen).toEqual([ADMIN]);
  });

  it('a new user while the reset runs: the screens keep what they read, and are told of the new user once it is over', async () => {
    const { shown, screen, change } = shownOf(SIGNED_OUT);
    expect(shown.get()).toBe(SIGNED_OUT);
    const { reset, done } = running();

    change(CASHIER, () => shown.hold(reset));

    expect(shown.get()).toBe(SIGNED_OUT);
    expect(screen).toEqual([]);
    await done();
    expect(screen).toEqual([CASHIER]);
  });

  it('changes during a hold are told with its end, as the state then', async () => {
    const { shown, screen, change } = shownOf(ADMIN);
    shown.get();
    const { reset, done } = running();

    change(CASHIER, () => shown.hold(reset));
    change(SIGNED_OUT);
    change(OWNER);

    expect(screen).toEqual([]);
    await done();
    expect(screen).toEqual([OWNER]);
  });

  it('a second hold: the screens stay on what they read before the first, until the last reset is over', async () => {
    const { shown, screen, change } = shownOf(ADMIN);
    shown.get();
    const first = running();
    const second = running();

    change(CASHIER, () => shown.hold(first.reset));
    change(OWNER, () => shown.hold(second.reset));

    await first.done();
    expect(shown.get()).toBe(ADMIN);
    expect(screen).toEqual([]);
    await second.done();
    expect(screen).toEqual([OWNER]);
  });

  it('a reset that fails ends the hold too', async () => {
    const { shown, screen, change } = shownOf(ADMIN);
    shown.get();
    const failed = Promise.reject(new Error('resetStore failed'));

    change(CASHIER, () => shown.hold(failed));
    await failed.catch(() => {});
    await Promise.resolve();

    expect(screen).toEqual([CASHIER]);
  });

  it('a listener that unsubscribed hears neither a change nor the end of a hold', async () => {
    const { shown, change, stop } = shownOf(SIGNED_OUT);
    const listener = vi.fn();
    const off = shown.subscribe(listener);
    stop();
    off();
    const { reset, done } = running();

    change(ADMIN);
    change(CASHIER, () => shown.hold(reset));
    await done();

    expect(listener).not.toHaveBeenCalled();
  });

  it("shows the server's state while the session restores, then the session's, and never the server's again", () => {
    const LOADING: TokenAuthState = { status: 'loading', user: null };
    const { shown, screen, change } = shownOf(LOADING, SIGNED_OUT);
    expect(shown.get()).toBe(SIGNED_OUT);

    change(LOADING);
    change(ADMIN);
    change(LOADING);

    expect(screen).toEqual([SIGNED_OUT, ADMIN, LOADING]);
  });

  it("without the server's state, shows the restore as it is", () => {
    const LOADING: TokenAuthState = { status: 'loading', user: null };
    const { shown } = shownOf(LOADING);
    expect(shown.get()).toBe(LOADING);
  });
});
