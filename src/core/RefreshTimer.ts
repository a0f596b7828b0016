import type { Clock } from './Clock';

// setTimeout fires at once for delays above 2^31 − 1 ms.
const MAX_DELAY = 2 ** 31 - 1;

/**
 * One timer that calls back at an absolute time of the injected clock.
 *
 * @remarks
 * Long delays are split under setTimeout's cap, and a timer that fires early by the clock (the cap, or a
 * clock set back) re-arms instead of calling back. One that fires late, after the machine slept, calls back
 * at once.
 */
export class RefreshTimer {
  readonly #clock: Clock;
  readonly #callback: () => void;
  #handle: unknown;
  #armed = false;

  constructor(clock: Clock, callback: () => void) {
    this.#clock = clock;
    this.#callback = callback;
  }

  /** Calls back at `time` (ms since the epoch), replacing any earlier schedule. */
  at(time: number): void {
    this.cancel();
    this.#armed = true;
    const fire = () => {
      if (this.#clock.now() < time) this.#arm(time, fire);
      else {
        this.#armed = false;
        this.#callback();
      }
    };
    this.#arm(time, fire);
  }

  /** Stops the pending call, if any. */
  cancel(): void {
    if (this.#armed) this.#clock.clearTimeout(this.#handle);
    this.#armed = false;
  }

  #arm(time: number, fire: () => void): void {
    const delay = Math.min(Math.max(time - this.#clock.now(), 0), MAX_DELAY);
    this.#handle = this.#clock.setTimeout(fire, delay);
  }
}
