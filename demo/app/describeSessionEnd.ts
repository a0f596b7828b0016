import type { SessionEnd } from 'apollo-link-token-pair';

/** A session end as the demo tells it: a short title and a sentence that says why. */
export interface SessionEndText {
  readonly title: string;
  readonly reason: string;
}

/** Why the session ended, in plain words: here or in another tab, by the user or by the server. */
export function describeSessionEnd({
  reason,
  elsewhere,
  rejection,
}: Pick<SessionEnd, 'reason' | 'elsewhere' | 'rejection'>): SessionEndText {
  switch (reason) {
    case 'logout':
      return { title: 'Signed out', reason: elsewhere ? 'You logged out in another tab.' : 'You logged out.' };
    case 'replaced':
      return {
        title: 'Account switched',
        reason: elsewhere ? 'You signed in as someone else in another tab.' : 'You signed in as someone else.',
      };
    case 'no-session':
      return { title: 'Signed out', reason: 'Nobody is signed in.' };
    case 'rejected':
      if (rejection === 'expired') {
        return { title: 'Your session ended', reason: 'Your sign-in has expired. Please sign in again.' };
      }
      if (rejection === 'revoked') {
        return { title: 'Your session ended', reason: 'The server revoked your session. Please sign in again.' };
      }
      return { title: 'Your session ended', reason: 'The server ended your session. Please sign in again.' };
  }
}
