/**
 * The time source and timers the session uses.
 *
 * @remarks
 * Inject one in tests, or where the wall clock is not to be trusted. The default reads `Date.now` and the
 * global timers at call time, so test frameworks' fake timers replace it without any wiring.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` after `delay` ms; the result is passed back to {@link Clock.clearTimeout}. */
  setTimeout(callback: () => void, delay: number): unknown;
  /** Cancels a timer made by {@link Clock.setTimeout}; a handle that has fired, or `undefined`, is a no-op. */
  clearTimeout(handle: unknown): void;
}

/** The default {@link Clock}: `Date.now` and the global timers, which never keep a Node process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, delay) {
    const handle = setTimeout(callback, delay);
    // A pending proactive refresh is no reason for a Node process to stay up.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
