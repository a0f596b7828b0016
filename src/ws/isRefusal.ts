const REFUSED: readonly unknown[] = [4401, 4403];

/** Whether `event` is a close by which the server refused the connection's token: 4401 or 4403. */
export function isRefusal(event: unknown): boolean {
  // A close event, as graphql-ws tells one: an object with a `code` and a `reason`.
  return (
    typeof event === 'object' && event !== null && 'reason' in event && 'code' in event && REFUSED.includes(event.code)
  );
}
