import type { LockEvent } from '../stores/openStore';
import type { RefreshTrigger } from './refreshTriggers';
import type { RefreshEvent, SessionEndEvent } from './TokenAuthOptions';
import type { TokenUser } from './TokenAuthState';

/**
 * What a session did, as {@link TokenAuth.observe} tells it: the devtools' timeline and the logger are built on
 * these. No event carries a token.
 *
 * - `login`: a session began here (`user`) through a door (`via`: `login()`, a sign-in door of `signIns` named
 *   `door`, or `adopt()`); or the door failed (`error`, the server's words), or answered a step that begins no
 *   session (`next`: a code was sent, a second factor is required);
 * - `refresh`: a refresh settled, as `onRefresh` reports it, with how long it took since it was asked for (`ms`,
 *   the wait for the refresh floor included);
 * - `floor`: a refresh waits for the refresh floor until `until` (local ms);
 * - `retry`: a refresh that failed without a verdict is retried at `until` (absent while offline);
 * - `followed`: a session sharing the store (another tab, another process) stored a pair of `user`, and this one
 *   took it with no request;
 * - `held`: an operation waits for a pair to go out with (a dead token being renewed, a store being read);
 * - `replayed`: an operation refused with its token is sent again with the new pair;
 * - `lock`: a refresh waited `ms` for the lock of a store it shares with other tabs;
 * - `end`: the session ended, as `onSessionEnd` reports it;
 * - `error`: a failure nobody awaits, as `onError` gets it (a store that cannot be read or written, a background
 *   refresh that failed).
 *
 * Each carries `at`, when it happened by the session's clock (local ms since the epoch).
 */
export type TokenAuthEvent = TokenAuthEventBody & { readonly at: number };

/** A {@link TokenAuthEvent} before the session stamps it with the time. */
export type TokenAuthEventBody =
  | ({ readonly type: 'login'; readonly user?: TokenUser; readonly error?: unknown; readonly next?: true } & Door)
  | ({ readonly type: 'refresh'; readonly ms: number } & RefreshEvent)
  | { readonly type: 'floor'; readonly trigger: RefreshTrigger; readonly until: number }
  | { readonly type: 'retry'; readonly until: number | undefined; readonly attempt: number; readonly error: Error }
  | { readonly type: 'followed'; readonly user: TokenUser }
  | OperationEvent
  | LockEvent
  | ({ readonly type: 'end' } & SessionEndEvent)
  | { readonly type: 'error'; readonly error: unknown };

/** An operation held for a pair, or replayed with a new one: its name, absent for an anonymous operation. */
export interface OperationEvent {
  readonly type: 'held' | 'replayed';
  readonly operation: string | undefined;
}

/**
 * The door a session begins through: `login()`, a sign-in door of `signIns` (`door` is its name), or `adopt()` of
 * a pair the app holds.
 */
export interface Door {
  readonly via: 'login' | 'signIn' | 'adopt';
  /** The sign-in door's name, for `signIn`. */
  readonly door?: string;
}
