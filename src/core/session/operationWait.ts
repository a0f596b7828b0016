import { AuthRequestError } from '../errors/AuthRequestError';
import { SessionEndedError } from '../errors/SessionEndedError';
import { RETRY_JOIN } from './sessionLimits';
import type { SessionRecord } from './SessionRecord';
import type { TriggerKind } from './refreshTriggers';

/**
 * The next step of a wait for the successor of a record: `join` (or start) its refresh, `sleep` until a retry
 * that is due soon, `again` (the refresh failed without a verdict and the retry is worth waiting for), `take` the
 * successor, or `fail`.
 */
export type WaitStep =
  | { readonly do: 'join' }
  | { readonly do: 'sleep'; readonly until: number }
  | { readonly do: 'again' }
  | { readonly do: 'take'; readonly record: SessionRecord }
  | { readonly do: 'fail'; readonly error: unknown };

/** What a wait knows before it joins a refresh. */
export interface BeforeJoin {
  readonly kind: TriggerKind;
  /** The record whose successor is wanted. */
  readonly from: SessionRecord;
  /** Whether the wait may still sleep out a retry (an operation's, once). */
  readonly patient: boolean;
  /** When the wait began (an operation's, its first attempt's). */
  readonly since: number;
}

/** What a wait knows once its join settled. */
export interface AfterJoin {
  readonly from: SessionRecord;
  /** The live record now. */
  readonly live: SessionRecord | null;
  readonly patient: boolean;
  /** Set once the session was disposed: the reason. */
  readonly disposed: unknown;
  /** How long an operation may wait, in ms: what its failure says when that runs out. */
  readonly operationWait: number;
}

const JOIN = { do: 'join' } as const;

type Step<Kind extends WaitStep['do']> = Extract<WaitStep, { do: Kind }>;

/**
 * Before a wait joins the refresh of `from`: a record whose refresh failed without a verdict holds a scheduled
 * retry. Only a trigger that `forces` refreshes then; an operation sleeps until the retry when it is due within
 * {@link RETRY_JOIN} of when it began to wait, and every other wait fails with the failure the retry waits out.
 */
export function beforeJoin({ kind, from, patient, since }: BeforeJoin): Step<'join' | 'sleep' | 'fail'> {
  if (!from.retry || kind.forces || from.refreshing) return JOIN;
  const at = from.retry.at ?? Infinity;
  if (!patient || at - since > RETRY_JOIN) return { do: 'fail', error: from.retry.error };
  return { do: 'sleep', until: at };
}

/**
 * Once the join settled: a record replaced in the same epoch gives its successor; one still live either still
 * refreshes (the operation's wait ran out), or failed without a verdict (worth the retry once), or was cut short.
 * Another epoch, or none, fails with why the epoch ended.
 */
export function afterJoin({
  from,
  live,
  patient,
  disposed,
  operationWait,
}: AfterJoin): Step<'again' | 'take' | 'fail'> {
  if (disposed) return { do: 'fail', error: disposed };
  if (live === from && from.refreshing) {
    const waited = new AuthRequestError(`Waited ${operationWait / 1000} s for a new access token.`, 'refreshToken');
    return { do: 'fail', error: from.retry?.error ?? waited };
  }
  if (live === from && patient && from.retry) return { do: 'again' };
  // Settled with nothing new and nothing to retry (cut short): a failure that says so, never `undefined`.
  if (live === from)
    return {
      do: 'fail',
      error: from.retry?.error ?? new AuthRequestError('The refresh brought no new pair.', 'refreshToken'),
    };
  if (live?.epoch === from.epoch) return { do: 'take', record: live };
  return { do: 'fail', error: from.epoch.ended ?? new SessionEndedError('no-session') };
}
