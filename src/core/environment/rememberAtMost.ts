/**
 * Adds `value` to `memory`, forgetting the oldest value once it holds more than `limit`: a memory of recent values
 * that stays small however long the session runs.
 * @internal
 */
export function rememberAtMost<T>(memory: Set<T>, value: T, limit: number): void {
  memory.add(value);
  if (memory.size > limit) memory.delete(memory.values().next().value!);
}
