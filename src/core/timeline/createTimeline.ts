import type { TokenAuthEvent } from '../session/TokenAuthEvent';
import { describeEvent, type EventLine } from './describeEvent';

/** One line of a {@link Timeline}: an event in words, with an id for React's keys. */
export interface TimelineEntry extends EventLine {
  readonly id: number;
  /** How many events the line stands for: operations held (or replayed) one after another share a line. */
  readonly count: number;
}

/** What a timeline or a logger observes: a `TokenAuth` (its `observe`). */
export interface ObservedSession {
  observe(observer: (event: TokenAuthEvent) => void): () => void;
}

/** A session's timeline: its events in words, newest first, bounded, for `useSyncExternalStore`. */
export interface Timeline {
  /** The entries, newest first; the same array until the next change. */
  getSnapshot(): readonly TimelineEntry[];
  subscribe(listener: () => void): () => void;
  /** Forgets every entry. */
  clear(): void;
  /** Stops observing the session. */
  stop(): void;
}

/** What {@link createTimeline} takes. */
export interface TimelineOptions {
  /** How many entries it keeps; the oldest go first. @defaultValue 200 */
  readonly limit?: number;
}

// Consecutive operations of one kind (held, or replayed) make one line: a burst of 20 is one entry, not 20.
function merge(last: TimelineEntry | undefined, line: EventLine, event: TokenAuthEvent): TimelineEntry | undefined {
  if (!last || last.kind !== 'operations' || !line.operations) return undefined;
  if (event.type !== (last.title.includes('held') ? 'held' : 'replayed')) return undefined;
  const operations = [...(last.operations ?? []), ...line.operations];
  const count = last.count + 1;
  const verb = event.type === 'held' ? 'held for a pair' : 'replayed';
  const names = [...new Set(operations)].join(', ');
  return { ...last, count, operations, title: `${count} operations ${verb}: ${names}` };
}

/**
 * Observes `auth` and keeps its events in words, newest first: the devtools' timeline. It starts with the events
 * the session kept (its last 100).
 */
export function createTimeline(auth: ObservedSession, { limit = 200 }: TimelineOptions = {}): Timeline {
  let entries: readonly TimelineEntry[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const stop = auth.observe((event) => {
    const line = describeEvent(event);
    const merged = merge(entries[0], line, event);
    entries = merged ? [merged, ...entries.slice(1)] : [{ ...line, id: next++, count: 1 }, ...entries].slice(0, limit);
    changed();
  });
  return {
    getSnapshot: () => entries,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear() {
      entries = [];
      changed();
    },
    stop,
  };
}
