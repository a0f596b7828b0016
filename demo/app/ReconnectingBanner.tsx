import { AuthRequestError } from 'apollo-link-token-pair';
import { useAuth } from 'apollo-link-token-pair/react';
import { useEffect, useState } from 'react';
import { clock } from './lab';

/** Shown while a refresh got no answer and waits to be retried: still signed in, trying again. */
export function ReconnectingBanner() {
  const reconnecting = useAuth((auth) => auth.reconnecting);
  const retry = useAuth((auth) => auth.retry);
  const [, setNow] = useState(() => clock.now());
  const now = clock.now();
  useEffect(() => {
    if (!retry) return;
    // Now, not when this component mounted: the first second shown is the right one.
    setNow(clock.now());
    const timer = setInterval(() => setNow(clock.now()), 500);
    return () => clearInterval(timer);
  }, [retry]);
  if (!reconnecting || !retry) return null;
  const wait =
    retry.at === undefined
      ? 'when the connection comes back'
      : `in ${Math.max(0, Math.ceil((retry.at - now) / 1000))} s`;
  // A server that answered (503) is not one that could not be reached.
  const status = AuthRequestError.is(retry.error) ? retry.error.status : undefined;
  const why =
    status === undefined
      ? 'The server could not renew your sign-in.'
      : `The server answered HTTP ${status} when asked to renew your sign-in.`;
  return (
    <div className="card notice notice-warn" role="status" data-testid="reconnecting">
      <strong>Reconnecting…</strong>
      <p title={retry.error.message} data-testid="reconnecting-reason">
        {why} You are still signed in; trying again {wait}.
      </p>
    </div>
  );
}
