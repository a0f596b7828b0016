import type { Ending } from './describeEnd';
import type { SessionParts } from './openSessionParts';
import type { SessionRecord } from './SessionRecord';

/**
 * What the refresher needs from its session (the shell, `createTokenSession`, hands it over): the parts they share,
 * the live record to ask whether a refresh is still wanted, and the two ways a refresh changes the session.
 */
export interface RefresherHost extends Omit<SessionParts, 'abort' | 'checks'> {
  /** The live record. */
  live(): SessionRecord | null;
  /** Makes `record` the live one: a rotation's or an adopted pair. */
  switchTo(record: SessionRecord): void;
  /** Ends the session: a refresh refused, or the store emptied elsewhere. */
  end(ending: Ending): void;
}
