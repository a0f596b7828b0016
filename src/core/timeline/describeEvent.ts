import { AuthRequestError } from '../errors/AuthRequestError';
import type { TokenAuthEvent } from '../session/TokenAuthEvent';
import type { TokenUser } from '../session/TokenAuthState';
import { redact } from './redact';

/**
 * What a timeline entry is about, for a filter: `login`, `refresh` (a check for revocation is `check`), `wait`
 * (the refresh floor, a retry), `operations` (held or replayed), `followed` (a pair from another tab or process),
 * `lock`, `store` (a store that failed), `end`, `error`.
 */
export type TimelineKind =
  'login' | 'refresh' | 'check' | 'wait' | 'operations' | 'followed' | 'lock' | 'store' | 'end' | 'error';

/** One event in words, as the devtools' timeline and `logTokenAuth` show it. Never holds a token. */
export interface EventLine {
  readonly kind: TimelineKind;
  /** When it happened, by the session's clock (local ms since the epoch). */
  readonly at: number;
  /** What happened, in a line: "Refresh (token-expired) → rotated". */
  readonly title: string;
  /** The words of the server or the failure, when there are any. */
  readonly detail?: string;
  /** How long it took, in ms, where that applies (a refresh, a wait for a lock). */
  readonly ms?: number;
  /** For `held` and `replayed` operations: their names (`(anonymous)` for one without). */
  readonly operations?: readonly string[];
}

/** Who a user is, in a few words: the e-mail or id, and the role. */
export function describeUser(user: TokenUser | null | undefined): string {
  if (!user) return 'nobody';
  const who = user.email ?? user.id;
  return user.role ? `${who} (${user.role})` : who;
}

/** The words of a failure, with any token in them cut to its last 4 characters. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return redact(error.message);
  return redact(String(error));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A {@link TokenAuthEvent} in words: what the devtools' timeline and `logTokenAuth` show. */
export function describeEvent(event: TokenAuthEvent): EventLine {
  const { at } = event;
  switch (event.type) {
    case 'login': {
      // Which door: login() says nothing more, as before doors existed.
      const door = event.via === 'adopt' ? ' (a pair handed over)' : event.door ? ` (${event.door})` : '';
      if (event.user) return { kind: 'login', at, title: `Signed in as ${describeUser(event.user)}${door}` };
      if (event.next) return { kind: 'login', at, title: `Sign-in step${door}: the server asks for the next step` };
      return { kind: 'login', at, title: `Sign-in failed${door}`, detail: describeError(event.error) };
    }
    case 'refresh': {
      const kind = event.trigger === 'check' ? 'check' : 'refresh';
      const title =
        kind === 'check'
          ? `Revocation check → ${event.outcome === 'rotated' ? 'session alive (rotated)' : event.outcome}`
          : `Refresh (${event.trigger}) → ${event.outcome}`;
      const detail = event.error === undefined ? undefined : describeError(event.error);
      return { kind, at, title, ms: event.ms, ...(detail && { detail }) };
    }
    case 'floor':
      return {
        kind: 'wait',
        at,
        title: `Refresh (${event.trigger}) waits ${seconds(event.until - at)} for the refresh floor`,
      };
    case 'retry':
      return {
        kind: 'wait',
        at,
        title:
          event.until === undefined
            ? `Retry #${event.attempt} when the app is back online`
            : `Retry #${event.attempt} in ${seconds(event.until - at)}`,
        detail: describeError(event.error),
      };
    case 'followed':
      return { kind: 'followed', at, title: `Pair followed from another tab or process: ${describeUser(event.user)}` };
    case 'held':
    case 'replayed': {
      const name = event.operation || '(anonymous)';
      return {
        kind: 'operations',
        at,
        title: `1 operation ${event.type === 'held' ? 'held for a pair' : 'replayed'}: ${name}`,
        operations: [name],
      };
    }
    case 'lock':
      return { kind: 'lock', at, title: `Waited ${seconds(event.ms)} for the lock another session held`, ms: event.ms };
    case 'end': {
      const where = event.reason === 'logout' ? (event.elsewhere ? ' elsewhere' : ' here') : '';
      const detail = event.message ?? (event.error === undefined ? undefined : describeError(event.error));
      return {
        kind: 'end',
        at,
        title: `Session ended: ${event.reason}${where}${event.rejection ? ` (${event.rejection})` : ''}`,
        ...(detail && { detail: redact(detail) }),
      };
    }
    case 'error': {
      const store = AuthRequestError.is(event.error) && event.error.operation === 'store';
      return {
        kind: store ? 'store' : 'error',
        at,
        title: store ? 'The token store failed' : 'A failure nobody awaited',
        detail: describeError(event.error),
      };
    }
  }
}
