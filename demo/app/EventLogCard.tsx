import { useSyncExternalStore } from 'react';
import type { EventLog } from './eventLog';

/**
 * The event log: what happened, the door each sign-in came through, what started each refresh and how it ended,
 * and the token before and after.
 */
export function EventLogCard({ log }: { log: EventLog }) {
  const events = useSyncExternalStore(log.subscribe, log.getSnapshot, log.getSnapshot);
  return (
    <div className="card log" data-testid="log-card">
      <div className="log-head">
        <h3>Event log</h3>
        <button className="quiet" onClick={() => log.clear()} data-testid="clear-log">
          Clear
        </button>
      </div>
      <p className="hint">Newest first; kept for this tab across sign-out and reload.</p>
      <ol data-testid="event-log">
        {events.map((event) => (
          <li
            key={event.id}
            className={`event-${event.kind}`}
            data-trigger={event.trigger}
            data-outcome={event.outcome}
            data-door={event.door}
          >
            <time>{new Date(event.at).toLocaleTimeString()}</time> <span className="text">{event.text}</span>
            {event.door && (
              <span className="why" data-testid="event-door">
                {' '}
                <code>{event.door}</code>
              </span>
            )}
            {event.trigger && (
              <span className="why" data-testid="event-why">
                {' '}
                <code>{event.trigger}</code> → <code>{event.outcome}</code>
                {event.tokens &&
                  (event.tokens.before !== event.tokens.after
                    ? ` · token …${event.tokens.before || '––––––'} → …${event.tokens.after}`
                    : ` · token …${event.tokens.after} kept`)}
              </span>
            )}
          </li>
        ))}
      </ol>
      {events.length === 0 && <p className="hint">Nothing yet.</p>}
    </div>
  );
}
