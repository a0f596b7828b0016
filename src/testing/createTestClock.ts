import type { Clock } from '../index';

/** Options of {@link createTestClock}. */
export interface TestClockOptions {
  /** Where the clock starts, in ms since the epoch. @defaultValue `Date.now()` when created */
  now?: number | Date;
}

/**
 * A {@link Clock} that moves only when the test says so: give it to `createTokenAuth({ clock })` and to
 * `createTestAuthServer({ clock })`, then `await clock.advance(ms)`.
 */
export interface TestClock extends Clock {
  /**
   * Moves time forward by `ms`, running every timer that falls due on the way, in order, each at its own time.
   * After each, it waits for the work the timer started: the requests to a test server that runs on this
   * clock (until they are answered) and the promise callbacks after them. So a refresh the timer started has
   * settled before a later timer (its own timeout, say) fires.
   */
  advance(ms: number): Promise<void>;
  /** {@link TestClock.advance | Advances} to `time` (ms since the epoch, or a `Date`); never backwards. */
  advanceTo(time: number | Date): Promise<void>;
  /** Timers scheduled and not yet run or cleared. */
  readonly pending: number;
  /**
   * Makes `advance()` wait for `work` before it moves on. A test server given this clock tracks each request
   * it serves; track your own async work the same way.
   */
  track(work: PromiseLike<unknown>): void;
}

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

// Captured when this module loads, before a test installs fake timers, so `advance()` can yield to the real
// event loop whether or not timers are faked: it must not depend on the timers it replaces.
// Without `setImmediate` (a browser, jest's jsdom environment), a message through a channel of its own: fake
// timers leave `MessageChannel` alone.
const realYield: (resume: () => void) => void =
  typeof setImmediate === 'function'
    ? setImmediate
    : typeof MessageChannel === 'function'
      ? yieldThroughChannel
      : setTimeout.bind(globalThis);

function yieldThroughChannel(resume: () => void): void {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => {
    port1.close();
    resume();
  };
  port2.postMessage(undefined);
}
const turn = () => new Promise<void>((resolve) => realYield(resolve));

/**
 * Creates a {@link TestClock}: `now()`, `setTimeout` and `clearTimeout` of its own, driven by `advance()`.
 *
 * @remarks
 * It does not touch the global timers, so it works with or without vitest's or jest's fake timers: those do not
 * move it, and it does not need them. Prefer it to fake timers for the session: Apollo's `MockedProvider`, React
 * and the network run on the real timers that fake timers stop (a query that never resolves, `waitFor` that
 * never retries). Run the session and a {@link createTestAuthServer | test server} on this clock, in-process,
 * and leave the global timers real.
 *
 * Import it before installing fake timers (test imports are hoisted, so the usual order holds): it keeps the
 * real `setImmediate` to yield with.
 *
 * @example
 * ```ts
 * const clock = createTestClock();
 * const server = createTestAuthServer({ clock });
 * const auth = createTokenAuth({ uri: '/graphql', fetch: server.fetch, clock });
 * await auth.login('admin@demo.test', 'admin-pass');
 * await clock.advance(15 * 60_000); // the proactive refresh ran 2.5 minutes before expiry
 * console.log(server.stats.refreshSuccesses); // 1
 * ```
 */
export function createTestClock(options: TestClockOptions = {}): TestClock {
  let now = options.now === undefined ? Date.now() : Number(options.now);
  let seq = 0;
  const timers = new Map<number, Timer>();
  const work = new Set<PromiseLike<unknown>>();

  // Yields to the event loop until the tracked work is done and a few turns pass with nothing new to wait for.
  async function settle(): Promise<void> {
    for (let quiet = 0; quiet < 3;) {
      await turn();
      if (work.size === 0) quiet += 1;
      else {
        quiet = 0;
        await Promise.allSettled([...work]);
      }
    }
  }

  function due(until: number): Timer | undefined {
    let first: Timer | undefined;
    for (const timer of timers.values()) {
      if (timer.at <= until && (!first || timer.at < first.at || (timer.at === first.at && timer.seq < first.seq)))
        first = timer;
    }
    return first;
  }

  const clock: TestClock = {
    now: () => now,
    setTimeout(callback, delay) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, Number(delay) || 0), seq: id, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      return clock.advanceTo(now + ms);
    },
    async advanceTo(time) {
      const target = Number(time);
      await settle();
      for (let timer = due(target); timer; timer = due(target)) {
        timers.delete(timer.seq);
        now = Math.max(now, timer.at);
        timer.callback();
        await settle();
      }
      now = Math.max(now, target);
    },
    get pending() {
      return timers.size;
    },
    track(promise) {
      const tracked = Promise.resolve(promise).finally(() => work.delete(tracked));
      tracked.catch(() => {});
      work.add(tracked);
    },
  };
  return clock;
}
