import type { Reporter } from './createReporter';
import type { SessionEnd, TokenAuthState } from './TokenAuthState';

/** The state a session shows, its listeners, and how the last session ended. See {@link createSessionState}. */
export interface SessionState {
  get(): TokenAuthState;
  /** Shows `next`, with how the last session ended; an unchanged state is not published again. */
  publish(next: TokenAuthState): void;
  /** Sets how the last signed-in session ended: part of every state from the next publish on. */
  remember(ended: SessionEnd | undefined): void;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Drops every listener. */
  clear(): void;
}

/** Creates the {@link SessionState} of a session, starting at `initial`. */
export function createSessionState(initial: TokenAuthState, { tell }: Pick<Reporter, 'tell'>): SessionState {
  let state = initial;
  let ended: SessionEnd | undefined;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    publish(next) {
      if (ended) next = { ...next, ended };
      const keys = Object.keys(next) as Array<keyof TokenAuthState>;
      if (keys.length === Object.keys(state).length && keys.every((key) => next[key] === state[key])) return;
      state = next;
      for (const listener of listeners) tell(listener, undefined);
    },
    remember(value) {
      ended = value;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear: () => listeners.clear(),
  };
}
