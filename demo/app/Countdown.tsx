import { useAuth } from 'apollo-link-token-pair/react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { clock, lab, shortId } from './lab';

/** The page's clock (`lab`'s, skewed when the lab says so), read every `interval` ms. */
export function useNow(interval: number) {
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(clock.now()), interval);
    return () => clearInterval(timer);
  }, [interval]);
  return now;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '–' : `${Math.max(0, Math.ceil(ms / 1000))} s`);

const HELD_BY: Record<string, string> = {
  proactive: 'the proactive refresh',
  retry: 'a retry',
  'token-expired': 'a query refused as expired or unauthenticated',
  check: 'a refused query',
  'expired-locally': 'a query whose token had expired by this clock',
  resume: 'the page coming back',
  restore: 'the restore',
};

/** What the countdown shows, by the session's public state and what the server said, read every 250 ms. */
export function useCountdown() {
  const { user, expiresAt, refreshAt, auth } = useAuth();
  const state = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
  const { verdicts } = useSyncExternalStore(lab.subscribe, lab.getSnapshot, lab.getSnapshot);
  // The tick re-renders; the time is read now, or a render that a state change caused would use a stale one.
  useNow(250);
  const now = clock.now();
  const id = shortId(user?.claims['jti']);
  const said = verdicts[id] ?? verdicts[String(user?.claims['sid'])];
  const expires =
    said === 'expired'
      ? 'expired (server)'
      : said
        ? `${said === 'reuse' ? 'revoked: reuse' : 'revoked'} (server)`
        : seconds(expiresAt && expiresAt - now);
  let wait: string | undefined;
  if (state.waiting)
    wait = `refresh in ${seconds(state.waiting.at - now)}: held by the refresh floor, which keeps two refreshes 5 s apart (asked by ${HELD_BY[state.waiting.trigger] ?? state.waiting.trigger})`;
  else if (state.retry) {
    wait =
      state.retry.at === undefined
        ? `refresh when back online (retry ${state.retry.attempt})`
        : `refresh in ${seconds(state.retry.at - now)}: retry ${state.retry.attempt} after a failure`;
  }
  return { id, said, expires, refresh: seconds(refreshAt && refreshAt - now), wait };
}

/**
 * When the access token dies and the next refresh runs, by the session's public state: "expired (server)" once
 * the server said so, and "refresh in N s" while a refresh waits for the floor (`state.waiting`) or a retry
 * (`state.retry`).
 */
export function Countdown() {
  const { id, said, expires, refresh, wait } = useCountdown();
  return (
    <dl className="timers">
      <dt>Access token</dt>
      <dd data-testid="token-id" title="The last 6 characters of the access token's jti: a rotation changes it">
        …{id}
      </dd>
      <dt>Access token expires in</dt>
      <dd data-testid="expires-in" className={said ? 'said' : undefined}>
        {expires}
      </dd>
      <dt>Next proactive refresh in</dt>
      <dd data-testid="refresh-in">{refresh}</dd>
      {wait && (
        <>
          <dt>Waiting</dt>
          <dd data-testid="refresh-wait" role="status">
            {wait}
          </dd>
        </>
      )}
    </dl>
  );
}
