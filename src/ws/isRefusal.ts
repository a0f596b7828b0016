const REFUSED: readonly unknown[] = [4401, 4403];

/** Whether `event` is a close by which the server refused the connection's token: 4401 or 4403. */
export function isRefusal(event: unknown): boolean {
  // A close event, as graphql-ws tells one: a `code` (only an object has one of these) and a `reason`.
  return REFUSED.includes((event as { code?: unknown } | null | undefined)?.code) && 'reason' in (event as object);
}
