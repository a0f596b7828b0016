/** `ms` as a clock reads it: `14:32`, or `1:02:03` past an hour. Negative values count as zero. */
function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The words of {@link describeDue}: what is said before the time ahead, and before the time gone by. */
export interface DueWords {
  /** `expires in`, followed by the time left. */
  readonly ahead: string;
  /** `expired`, followed by the time since and `ago`. */
  readonly behind: string;
}

/**
 * When `at` is, seen from `now`, as a countdown: `expires in 14:32`, or `expired 0:05 ago` once it has passed.
 */
export function describeDue(at: number, now: number, { ahead, behind }: DueWords): string {
  // Whole seconds, rounded away from the moment itself: a countdown reads 0:01 until it is due, never 0:00 early.
  return at > now
    ? `${ahead} ${formatDuration(Math.ceil((at - now) / 1000) * 1000)}`
    : `${behind} ${formatDuration(Math.floor((now - at) / 1000) * 1000)} ago`;
}
