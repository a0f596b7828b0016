import type { DoctorClient } from './createDoctorClient';
import type { Pair } from './Pair';

/**
 * The sessions the doctor opened and must log out before it reports, one pair each. A set, not a history: which
 * pair a check uses next is handed to it by the step that got it, never read from the order they were added in.
 */
export interface OpenSessions {
  /** A pair issued to the doctor: its session may be live. */
  add(pair: Pair): void;
  /** A pair whose session ended, or that a newer pair of its session replaced. */
  delete(pair: Pair): void;
  /** Logs out every pair still open; answers how many could not be. */
  logOutAll(client: Pick<DoctorClient, 'logout'>): Promise<number>;
}

/** No session open yet. */
export function createOpenSessions(): OpenSessions {
  const open = new Set<Pair>();
  return {
    add: (pair) => void open.add(pair),
    delete: (pair) => void open.delete(pair),
    async logOutAll(client) {
      for (const pair of [...open]) {
        const out = await client.logout(pair);
        // Refused: the pair was dead already (its session ended with another of its pairs).
        if (out.data?.['logout'] || (!out.failure && out.errors.length)) open.delete(pair);
      }
      return open.size;
    },
  };
}
