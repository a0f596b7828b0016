/** The most requests one run sends, cleanup included. */
export const MAX_REQUESTS = 18;

/** A run's requests, bounded: one past the budget is counted and refused, never sent. */
export interface RequestBudget {
  /** Counts a request; whether it may be sent. */
  take(): boolean;
  /** Requests sent: never more than the budget. */
  sent(): number;
}

/** A budget of `max` requests. */
export function createRequestBudget(max: number = MAX_REQUESTS): RequestBudget {
  let asked = 0;
  return { take: () => ++asked <= max, sent: () => Math.min(asked, max) };
}
