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
 * it has decided what becomes of the Apollo store. Given the state a server rendered with (`serverState`), it shows
 * that state while the session is still restoring, and the session's own from its first other state on.
 *
 * @remarks
 * A user who signs in while the previous user's store reset is still to run (a sign-out's waits for a timer, which a
 * hidden tab runs late) or begins with the sign-in (a login as someone else) is shown once that reset has emptied
 * the store. Shown at once, the new user's screens would mount before it: they would read the previous user's data
 * from the cache, and the reset would then abort the queries they started. Apollo's `resetStore()` empties the cache
 * and ends the queries in flight a microtask after it is called, and React renders a change of the session in a
 * microtask of its own: the order is set here, not left to the two.
 */
export function createShownState(auth: TokenAuth, serverState?: TokenAuthState): ShownState {
  // The server's state stands for the session until the browser's own has read its pair. Shown meanwhile, that
  // restore would swap the server's markup for "loading" and back: a flash, and a form remounted empty under the
  // person typing into it (seen in CI as a sign-in that sent no password).
  let standIn = serverState;
  const current = () => {
    const state = auth.getState();
    if (standIn && state.status === 'loading') return standIn;
    standIn = undefined;
    return state;
  };
  // The state the screens last read, and the reset that keeps them on it.
  let read = current();
  let holding: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: () => (holding ? read : (read = current())),
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
