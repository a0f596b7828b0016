import type { ObservedSession } from './createTimeline';
import { describeEvent } from './describeEvent';

/** What {@link logTokenAuth} takes. */
export interface LogTokenAuthOptions {
  /** Where each line goes. @defaultValue `console.debug` */
  readonly log?: (line: string) => void;
}

const time = (at: number) => new Date(at).toISOString().slice(11, 23);

/**
 * Prints what a session does, one line per event, with the same words and the same redaction as the devtools'
 * timeline: for a Node service, or a React Native app with no screen for the panel. It starts with the events the
 * session kept (its last 100). Returns the function that stops it.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri: 'https://api.example.com/graphql' });
 * const stop = logTokenAuth(auth);
 * // [auth] 12:00:00.000 Signed in as ada@example.com (ADMIN)
 * // [auth] 12:12:30.412 Refresh (proactive) → rotated (412 ms)
 * ```
 */
export function logTokenAuth(auth: ObservedSession, { log = console.debug }: LogTokenAuthOptions = {}): () => void {
  return auth.observe((event) => {
    const { at, title, detail, ms } = describeEvent(event);
    log(`[auth] ${time(at)} ${title}${ms === undefined ? '' : ` (${ms} ms)`}${detail ? `: ${detail}` : ''}`);
  });
}
