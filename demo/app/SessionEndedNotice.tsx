import { useAuth } from 'apollo-link-token-pair/react';
import { useState, useSyncExternalStore } from 'react';
import { describeSessionEnd } from './describeSessionEnd';
import { lab } from './lab';

/**
 * Says why the last session ended (`useAuth().ended`, kept until the next login), until it is dismissed: an
 * alert when the server ended it, a quiet status line when the user did (here or in another tab).
 */
export function SessionEndedNotice() {
  const ended = useAuth((auth) => auth.ended);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const { verdicts, sid } = useSyncExternalStore(lab.subscribe, lab.getSnapshot, lab.getSnapshot);
  if (!ended || ended.reason === 'no-session' || dismissed === ended.at) return null;
  const told = describeSessionEnd(ended);
  // The lab presented a spent refresh token of this session: the server revoked it for reuse.
  const reused = ended.reason === 'rejected' && verdicts[sid] === 'reuse';
  const { title, reason } = reused
    ? {
        title: told.title,
        reason: 'The server detected a reused refresh token and revoked your session. Please sign in again.',
      }
    : told;
  const byServer = ended.reason === 'rejected';
  return (
    <div
      className={`card notice ${byServer ? 'notice-alert' : 'notice-info'}`}
      role={byServer ? 'alert' : 'status'}
      data-testid="session-ended"
    >
      <div>
        <strong>{title}</strong>
        <p data-testid="session-ended-reason">{reason}</p>
      </div>
      <button
        className="quiet"
        onClick={() => setDismissed(ended.at)}
        data-testid="session-ended-dismiss"
        aria-label="Dismiss"
      >
        Dismiss
      </button>
    </div>
  );
}
