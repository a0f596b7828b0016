import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBroadcastTokenStore, type TokenPair } from '../../src';
import { makePair } from '../helpers/jwt';
import { TIME } from '../helpers/session';

const { T0, MINUTE } = TIME;

type Received = { type: string; from: string; version?: readonly [number, string] };

/**
 * A real BroadcastChannel whose incoming messages can be held, as a frozen tab's are, and handed to its
 * listeners later in the order they arrived. It records every message it received.
 */
class FreezableChannel extends BroadcastChannel {
  static readonly instances: FreezableChannel[] = [];
  readonly received: Received[] = [];
  held: Array<() => void> | null = null;

  constructor(name: string) {
    super(name);
    FreezableChannel.instances.push(this);
  }

  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void {
    if (type !== 'message') return super.addEventListener(type, listener, options);
    const deliver = (event: Event) =>
      typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
    super.addEventListener(
      type,
      (event) => {
        this.received.push((event as MessageEvent<Received>).data);
        if (this.held) this.held.push(() => deliver(event));
        else deliver(event);
      },
      options,
    );
  }

  freeze() {
    this.held = [];
  }

  thaw() {
    const held = this.held ?? [];
    this.held = null;
    for (const deliver of held) deliver();
  }
}

let channel = 0;
const stores: Array<ReturnType<typeof createBroadcastTokenStore>> = [];

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  vi.stubGlobal('BroadcastChannel', FreezableChannel);
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  FreezableChannel.instances.length = 0;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A store standing for a tab on the channel `name`, and the channel it opened. */
function tab(name: string) {
  const store = createBroadcastTokenStore({ name, timeout: 100 });
  stores.push(store);
  return { store, channel: FreezableChannel.instances.at(-1)! };
}

/** Reads `store`; the fake clock runs (50 ms per check) until its wait for the other tabs ends. */
async function read(store: ReturnType<typeof createBroadcastTokenStore>) {
  const result = { done: false, pair: undefined as TokenPair | null | undefined };
  void Promise.resolve(store.get()).then((pair) => Object.assign(result, { done: true, pair }));
  await vi.waitFor(() => expect(result.done).toBe(true));
  return result.pair;
}

describe('createBroadcastTokenStore: a frozen tab with a high write counter', () => {
  it('cannot make a tab opened since, which logged in meanwhile, go back to its old pair, and adopts the new one when it thaws', async () => {
    const name = `versions-${++channel}`;
    const a = tab(name);
    // Tab A rotated its pair several times before it was frozen: its counter is well past 1.
    const old = makePair('a3');
    a.store.set(makePair('a1'));
    a.store.set(makePair('a2'));
    a.store.set(old);
    a.channel.freeze();

    // A minute later, tab C opens. Its read gets no answer from the frozen A within its short wait.
    await vi.advanceTimersByTimeAsync(MINUTE);
    const c = tab(name);
    const first = c.store.get();
    await vi.advanceTimersByTimeAsync(50);
    expect(await first).toBeNull();
    // C logs in and writes a new pair.
    const fresh = makePair('c-login');
    c.store.set(fresh);
    // A holds C's read and C's write, unanswered.
    await vi.waitFor(() => expect(a.channel.received.map((message) => message.type)).toEqual(['ask', 'set']));
    expect(c.channel.received).toEqual([]);

    // A thaws: it answers C's old read with its old pair and high counter, then sees C's write.
    a.channel.thaw();
    await vi.waitFor(() => expect(c.channel.received.map((message) => message.type)).toEqual(['state']));
    const [answer] = c.channel.received;
    expect(answer).toMatchObject({ type: 'state', pair: old });

    // C keeps its login, and A follows it.
    expect(await read(c.store)).toEqual(fresh);
    expect(await read(a.store)).toEqual(fresh);
    // C's write outranks what A had when it froze, however many writes A had made.
    const [, write] = a.channel.received;
    expect(write).toMatchObject({ type: 'set', pair: fresh });
    expect(write!.version![0]).toBeGreaterThan(answer!.version![0]);
  });
});
