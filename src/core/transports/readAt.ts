/**
 * The first value `accept` takes at one of `paths`, dotted paths into `value` (`'data.token'` reads
 * `{ data: { token } }`); `undefined` when none holds one.
 */
export function readAt(
  value: unknown,
  paths: readonly string[],
  accept: (found: unknown) => boolean = (found) => found != null,
): unknown {
  for (const path of paths) {
    const found = path
      .split('.')
      .reduce<unknown>(
        (at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
        value,
      );
    if (accept(found)) return found;
  }
  return undefined;
}
