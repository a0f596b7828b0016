import { useAuth } from 'apollo-link-token-pair/react';
import { useEffect, useState } from 'react';

/** Shown while a refresh got no answer and waits to be retried: still signed in, trying again. */
export function ReconnectingBanner() {
  const reconnecting = useAuth((auth) => auth.reconnecting);
  const retry = useAuth((auth) => auth.retry);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!retry) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [retry]);
  if (!reconnecting || !retry) return null;
  const wait = retry.at === undefined ? 'when the connection comes back' : `in ${Math.max(0, Math.ceil((retry.at - now) / 1000))} s`;
  return (
    <div className="card notice notice-warn" role="status" data-testid="reconnecting">
      <strong>Reconnecting…</strong>
      <p title={retry.error.message}>The server could not renew your sign-in. You are still signed in; trying again {wait}.</p>
    </div>
  );
}
