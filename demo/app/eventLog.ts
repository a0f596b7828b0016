/** One line of the demo's event log. */
export interface LogEvent {
  readonly id: number;
  readonly at: number;
  readonly kind: 'login' | 'proactive' | 'resume' | 'replay' | 'refresh' | 'ended' | 'logout' | 'error';
  readonly text: string;
}

/** A tiny external store for the event log, read with `useSyncExternalStore`. */
export function createEventLog() {
  let events: readonly LogEvent[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  return {
    add(kind: LogEvent['kind'], text: string) {
      events = [{ id: next++, at: Date.now(), kind, text }, ...events].slice(0, 50);
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => events,
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
