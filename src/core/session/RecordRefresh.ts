import type { TokenPair } from '../tokens/TokenPair';
import type { TokenAuthState } from './TokenAuthState';

/**
 * What is known of the refresh of one record's pair, as fields of the record (`SessionRecord`). The refresher
 * (`createRefresher`) alone writes them; the shell and the pure rules (`operationWait`, `stateOf`) read them
 * (test/structure/factOwners.test.ts). A new pair means a new record, and its refresh starts afresh.
 */
export interface RecordRefresh {
  /** The refresh of this pair in flight. */
  refreshing?: Promise<void>;
  /** The pair the service answered that refresh with (or one another session had rotated to): the newest. */
  next?: TokenPair;
  /** A refresh request of this pair has gone out: its refresh token is spent, whatever the answer. */
  sent?: boolean;
  /** Set while a retry of a refresh that got no verdict waits. */
  retry?: NonNullable<TokenAuthState['retry']>;
  /** Set while a refresh that was asked for waits for the floor. */
  waiting?: NonNullable<TokenAuthState['waiting']>;
  /** How many refreshes of this pair in a row were answered with an uncertain refusal. */
  refusals?: number;
}
