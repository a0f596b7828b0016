/**
 * What started a refresh:
 * - `proactive`: the timer, before the access token expires;
 * - `retry`: a retry after a refresh that failed without a verdict (network, 5xx, timeout);
 * - `token-expired`: an operation answered `TOKEN_EXPIRED` (or refused as unauthenticated);
 * - `check`: an operation refused with an error that may mean the session is dead (no code, or one that says
 *   nothing): the refresh tells whether it is;
 * - `expired-locally`: an operation whose token was already dead by the local clock;
 * - `manual`: the app's `refresh()`;
 * - `socket`: a subscription socket whose token the server refused (`./ws`);
 * - `restore`: a restored pair whose access token was dead;
 * - `adopt`: a pair handed over by `adopt()` whose access token was dead;
 * - `resume`: the app coming back after the refresh was due.
 */
export type RefreshTrigger =
  | 'proactive'
  | 'retry'
  | 'token-expired'
  | 'check'
  | 'expired-locally'
  | 'manual'
  | 'socket'
  | 'restore'
  | 'adopt'
  | 'resume';

/** How the engine treats a refresh, by what asked for it. See {@link REFRESH_TRIGGERS}. */
export interface TriggerKind {
  /**
   * An operation waits on it for a pair to go out with: the wait is bounded, and it waits out one quick retry
   * of a failure without a verdict rather than fail.
   */
  readonly operation: boolean;
  /** It refreshes even while a retry is scheduled; the others fail with the failure the retry waits out. */
  readonly forces: boolean;
  /** Nobody awaits it: its failures go to `onError`. */
  readonly background: boolean;
  /**
   * How the refresh floor times it (`getRefreshFloor`): `none`, at once; `credit`, the server's word, from a
   * credit that refills; `schedule`, the local clock's, a whole floor after the last refresh.
   */
  readonly floor: 'none' | 'credit' | 'schedule';
}

const kind = (floor: TriggerKind['floor'], flags: Partial<Omit<TriggerKind, 'floor'>> = {}): TriggerKind => ({
  operation: false,
  forces: false,
  background: false,
  floor,
  ...flags,
});

/** Every refresh trigger and what it is: the one place that says so. */
export const REFRESH_TRIGGERS: Readonly<Record<RefreshTrigger, TriggerKind>> = {
  'token-expired': kind('credit', { operation: true }),
  'expired-locally': kind('schedule', { operation: true }),
  check: kind('credit'),
  manual: kind('none', { forces: true }),
  socket: kind('none', { forces: true }),
  proactive: kind('schedule', { forces: true, background: true }),
  retry: kind('schedule', { forces: true, background: true }),
  resume: kind('schedule', { forces: true, background: true }),
  restore: kind('schedule', { background: true }),
  adopt: kind('none'),
};
