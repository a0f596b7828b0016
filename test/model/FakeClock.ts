import type { Clock } from '../../src';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/**
 * A {@link Clock} that moves only when the test says so, injected through the `clock` option.
 *
 * @remarks
 * Time and timers are separate on purpose: {@link FakeClock.jump} moves time without firing anything (a laptop
 * asleep), and {@link FakeClock.fireNext} fires what is due, late if time jumped past it. Nothing here touches
 * the global timers, so fast-check can run thousands of schedules with no real waiting.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 0;
  readonly #timers = new Map<number, Timer>();

  constructor(start: number) {
    this.#now = start;
  }

  now = (): number => this.#now;

  setTimeout = (callback: () => void, delay: number): unknown => {
    const id = ++this.#nextId;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, delay), callback });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#timers.delete(handle as number);
  };

  /** How many timers are armed. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward without firing any timer. */
  jump(ms: number): void {
    this.#now += ms;
  }

  /**
   * Fires the earliest timer due at or before `until` (ties in the order they were set), first moving the clock
   * to its time if that is later than now. Returns false when no timer is due by then.
   */
  fireNext(until: number): boolean {
    let next: Timer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.at <= until && (!next || timer.at < next.at)) next = timer;
    }
    if (!next) return false;
    this.#timers.delete(next.id);
    this.#now = Math.max(this.#now, next.at);
    next.callback();
    return true;
  }
}
