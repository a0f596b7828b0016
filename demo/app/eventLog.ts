/** One line of the demo's event log. */
export interface LogEvent {
  readonly id: number;
  readonly at: number;
  readonly kind:
    'login' | 'step' | 'proactive' | 'resume' | 'replay' | 'refresh' | 'ended' | 'logout' | 'error' | 'lab';
  readonly text: string;
  /** For a refresh: what started it and how it ended, as `onRefresh` said. */
  readonly trigger?: string;
  readonly outcome?: string;
  /** Short ids (the last 6 characters of the `jti`) of the access token before and after. */
  readonly tokens?: { readonly before: string; readonly after: string };
  /** For a sign-in: the door it came through, as the page called it (`login()`, `signIn('register')`). */
  readonly door?: string;
}

const KEY = 'demo-event-log';
const LIMIT = 100;

function load(): readonly LogEvent[] {
  try {
    const events = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as LogEvent[];
    return Array.isArray(events) ? events : [];
  } catch {
    return [];
  }
}

/**
 * A tiny external store for the event log, read with `useSyncExternalStore`. It lasts as long as the tab: kept in
 * sessionStorage, across sign-out and reload.
 */
export function createEventLog() {
  let events = load();
  let next = Math.max(0, ...events.map((event) => event.id)) + 1;
  const listeners = new Set<() => void>();
  const changed = () => {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(events));
    } catch {
      // Storage full or refused: the log still shows what happened in this page.
    }
    for (const listener of listeners) listener();
  };
  return {
    add(kind: LogEvent['kind'], text: string, details: Pick<LogEvent, 'trigger' | 'outcome' | 'tokens' | 'door'> = {}) {
      events = [{ id: next++, at: Date.now(), kind, text, ...details }, ...events].slice(0, LIMIT);
      changed();
    },
    clear() {
      events = [];
      changed();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => events,
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
