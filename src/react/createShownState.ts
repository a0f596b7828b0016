import type { TokenAuth, TokenAuthState } from '../index';

/** The session's state as the provider's screens show it. See {@link createShownState}. */
export interface ShownState {
  /** What the screens show: the session's state, or, while a {@link ShownState.hold} lasts, what they showed. */
  get(): TokenAuthState;
  /** Calls `listener` when what the screens show may have changed. */
  subscribe(listener: () => void): () => void;
  /** The session changed: the screens hear of it, unless a hold keeps them as they are. */
  changed(): void;
  /** The screens go on showing what they show until `reset` settles, then hear of the session's state. */
  hold(reset: Promise<void>): void;
}

/**
 * Creates the {@link ShownState} of a provider's session. The provider tells it of each change of the session once
 * it has decided what becomes of the Apollo store.
 *
 * @remarks
 * A user who signs in while the previous user's store reset is still to run (a sign-out's waits for a timer, which a
 * hidden tab runs late) or begins with the sign-in (a login as someone else) is shown once that reset has emptied
 * the store. Shown at once, the new user's screens would mount before it: they would read the previous user's data
 * from the cache, and the reset would then abort the queries they started. Apollo's `resetStore()` empties the cache
 * and ends the queries in flight a microtask after it is called, and React renders a change of the session in a
 * microtask of its own: the order is set here, not left to the two.
 */
export function createShownState(auth: TokenAuth): ShownState {
  // The state the screens last read, and the reset that keeps them on it.
  let read = auth.getState();
  let holding: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: () => (holding ? read : (read = auth.getState())),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    changed() {
      if (!holding) tell();
    },
    hold(reset) {
      // A second hold ends with the last reset only.
      holding = reset;
      const end = () => {
        if (holding !== reset) return;
        holding = undefined;
        tell();
      };
      reset.then(end, end);
    },
  };
}
