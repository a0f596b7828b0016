import type { TokenPair } from '../tokens/TokenPair';
import type { SessionParts } from './openSessionParts';

/** What the restorer needs from its session (the shell, `createTokenSession`, hands it over). */
export interface RestorerHost extends Pick<SessionParts, 'config' | 'seam' | 'state' | 'reporter' | 'signal'> {
  /** Whether the stored pair is still wanted: no login, followed pair or logout has taken over since the start. */
  wanted(): boolean;
  /** Makes the session of the pair read (or of none). */
  restore(pair: TokenPair | null): void;
}
