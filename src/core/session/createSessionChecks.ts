import { rememberAtMost } from '../environment/rememberAtMost';
import { speaksOfAuth } from '../../shared/speaksOfAuth';

/** Decides which doubtful failures are worth a refresh to check the session. See {@link createSessionChecks}. */
export interface SessionChecks {
  /**
   * The failure's key when an operation sent with the pair `sent` and refused with `failure` is worth a check now;
   * `undefined` when it is not.
   */
  worth(failure: string, sent: object, now: number): string | undefined;
  /** The check of the failure `key` renewed the session into `pair`. */
  brought(pair: object, key: string): void;
}

// A failure that does not speak of the session is checked at most once in this long: over 10 minutes of such
// errors, at most 10 refreshes.
const QUIET_INTERVAL = 60_000;
// Failures learnt not to mean a dead session; the oldest is forgotten past this many.
const LEARNT = 64;

/**
 * Creates the budget of session checks: a failure that may mean the session is dead (a GraphQL error without
 * a code, or with one that says nothing) costs a refresh, whose answer tells.
 *
 * @remarks
 * - A failure in the words of a refused session ("Not authenticated", "Invalid token") is checked at once: a
 *   session revoked on the server ends within a round trip, on servers that give it no code.
 * - Any other ("Club not found") is checked at most once per minute, so a server that says nothing of what it
 *   refuses still ends a dead session, later.
 * - A failure said again to the very pair its own check brought is the operation's, not the session's: it is
 *   learnt and never checked again. Messages are compared with their digits and quoted parts blanked, so
 *   "Club 12 not found" and "Club 13 not found" are one failure.
 */
export function createSessionChecks(): SessionChecks {
  const learnt = new Set<string>();
  // The failure whose check brought each pair: said again to that pair, it is the operation's, not the session's.
  const checked = new WeakMap<object, string>();
  let lastQuiet = -Infinity;
  return {
    worth(failure, sent, now) {
      const key = failure
        .replace(/"[^"]*"|'[^']*'|\d+/g, '#')
        .trim()
        .slice(0, 200);
      if (learnt.has(key)) return undefined;
      if (checked.get(sent) === key) {
        rememberAtMost(learnt, key, LEARNT);
        return undefined;
      }
      if (speaksOfAuth(failure)) return key;
      if (now - lastQuiet < QUIET_INTERVAL) return undefined;
      lastQuiet = now;
      return key;
    },
    brought(pair, key) {
      checked.set(pair, key);
    },
  };
}
