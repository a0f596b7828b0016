/** The reset of the Apollo store that a sign-out leaves for later. See {@link createSignOutReset}. */
export interface SignOutReset {
  /** A sign-out: the reset waits for {@link SignOutReset.rendered}; resolves once it is done. */
  defer(): Promise<void>;
  /** The render that shows the sign-out is committed: the reset goes on the next timer. */
  rendered(): void;
  /** Runs a reset that still waits, now (a sign-in came first, or the provider unmounts); says whether one did. */
  flush(): boolean;
}

/**
 * Creates the {@link SignOutReset} of a provider, around its `reset`.
 *
 * @remarks
 * At a sign-out the screens behind an `<AuthGate>` unmount in the render that shows it, and Apollo's `useQuery`
 * lets go of their queries on a timer (so that StrictMode's remount finds them). A reset before then would fetch
 * those queries again, signed out, only to abort them. A reset after a sign-in, though, would abort the queries
 * that the new user's screens started: a sign-in that comes first runs the waiting reset at once, and the provider
 * shows the new user once it is over (`createShownState`).
 */
export function createSignOutReset(reset: () => Promise<void>): SignOutReset {
  let waiting: { done: () => void; timer?: ReturnType<typeof setTimeout> } | undefined;
  const run = () => {
    const was = waiting;
    waiting = undefined;
    if (!was) return false;
    clearTimeout(was.timer);
    void reset().then(was.done);
    return true;
  };
  return {
    defer: () => new Promise<void>((done) => (waiting = { done })),
    rendered() {
      if (waiting && waiting.timer === undefined) waiting.timer = setTimeout(run);
    },
    flush: run,
  };
}
