import { useSyncExternalStore } from 'react';
import { useCountdown } from './Countdown';
import type { EventLog } from './eventLog';

/**
 * On a phone, a strip that stays at the top while you scroll to the controls: the token, its countdown, a
 * refresh that waits, and the newest line of the log, so that a control's effect shows where you clicked it.
 */
export function StatusStrip({ log }: { log: EventLog }) {
  const { id, said, expires, wait } = useCountdown();
  const [latest] = useSyncExternalStore(log.subscribe, log.getSnapshot, log.getSnapshot);
  return (
    <div className="status-strip" data-testid="status-strip" aria-hidden="true">
      <div>
        <span className="muted">token</span> …{id} <span className="muted">expires in</span>{' '}
        <strong className={said ? 'said' : undefined} data-testid="strip-expires-in">
          {expires}
        </strong>
        {wait && <span className="wait"> · {wait.replace(/:.*/, '')}</span>}
      </div>
      {latest && (
        <div className={`latest event-${latest.kind}`} data-testid="strip-latest">
          {latest.text}
          {latest.trigger && (
            <span className="why">
              {' '}
              {latest.trigger} → {latest.outcome}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
