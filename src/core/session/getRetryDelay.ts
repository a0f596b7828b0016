/**
 * The default wait before retry number `attempt` (from 1) after a refresh failed for want of an answer:
 * "full jitter", a random time up to 1 s, 2 s, 4 s … capped at 30 s, so that clients that lost the service
 * together do not come back together.
 */
export function getRetryDelay(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(30_000, 1_000 * 2 ** (attempt - 1));
}
