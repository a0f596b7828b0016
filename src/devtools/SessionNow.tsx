import { type ReactNode, useSyncExternalStore } from 'react';
import type { Clock, SessionEnd, TokenAuth, TokenAuthState } from '../index';
import { describeError, redact } from '../internal';
import { describeDue } from './describeDue';
import { formatTime } from './formatTime';
import { useClockSeconds } from './useClockSeconds';

/** Props of {@link SessionNow}. */
export interface SessionNowProps {
  readonly auth: TokenAuth;
  /** The session's clock: the countdowns are by the time the session keeps. */
  readonly clock: Clock;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A retry's wait in words: `#2 in 0:04: fetch failed`. */
function describeRetry(retry: NonNullable<TokenAuthState['retry']>, now: number): string {
  const when = retry.at === undefined ? 'when the app is back online' : describeDue(retry.at, now, DUE.retry);
  return `#${retry.attempt} ${when}: ${describeError(retry.error)}`;
}

/** How a session ended, in words: `logout here`, `rejected (revoked): Invalid refresh token`, and when. */
function describeEnded(ended: SessionEnd): string {
  const where = ended.elsewhere ? ' elsewhere' : ended.reason === 'logout' ? ' here' : '';
  const rejection = ended.rejection ? ` (${ended.rejection})` : '';
  const message = ended.message ? `: ${redact(ended.message)}` : '';
  return `${ended.reason}${where}${rejection}${message}, at ${formatTime(ended.at)}`;
}

const DUE = {
  expiry: { ahead: 'expires in', behind: 'expired' },
  refresh: { ahead: 'refresh in', behind: 'refresh due' },
  retry: { ahead: 'in', behind: 'due' },
  floor: { ahead: 'goes in', behind: 'due' },
} as const;

/** The user as the panel shows them: the id, the e-mail and the role, never the claims (they hold more). */
function UserFacts({ user }: { user: TokenAuthState['user'] }) {
  if (!user) return <Fact term="User">nobody</Fact>;
  return (
    <>
      <Fact term="User">{user.id}</Fact>
      <Fact term="E-mail">{user.email ?? '(none in the token)'}</Fact>
      <Fact term="Role">{user.role ?? '(none)'}</Fact>
    </>
  );
}

/** The waits of the session now: its tokens' countdowns, a retry, a refresh waiting for the floor. */
function Waits({ state, now }: { state: TokenAuthState; now: number }) {
  return (
    <>
      {state.expiresAt !== undefined && (
        <Fact term="Access token">{describeDue(state.expiresAt, now, DUE.expiry)}</Fact>
      )}
      {state.refreshAt !== undefined && (
        <Fact term="Proactive refresh">{describeDue(state.refreshAt, now, DUE.refresh)}</Fact>
      )}
      {state.retry && <Fact term="Retry">{describeRetry(state.retry, now)}</Fact>}
      {state.waiting && (
        <Fact term="Refresh floor">
          {`${state.waiting.trigger} refresh waits for the refresh floor, ${describeDue(state.waiting.at, now, DUE.floor)}`}
        </Fact>
      )}
    </>
  );
}

/**
 * The session now, from `auth.getState()`: its status, the user, the access token's expiry and the proactive
 * refresh as countdowns by the session's clock, a retry or a wait for the refresh floor, the last error and how
 * the last session ended. It shows no token.
 */
export function SessionNow({ auth, clock }: SessionNowProps) {
  const state = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
  const now = useClockSeconds(clock);
  return (
    <dl>
      <Fact term="Status">{state.status}</Fact>
      <UserFacts user={state.user} />
      <Waits state={state} now={now} />
      {state.error && <Fact term="Last error">{describeError(state.error)}</Fact>}
      {state.ended && <Fact term="Last session ended">{describeEnded(state.ended)}</Fact>}
    </dl>
  );
}
