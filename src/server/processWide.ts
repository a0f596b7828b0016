/**
 * The value every token handler of this process shares under `name`, whichever copy of this module asks: Next.js
 * loads its proxy and its route handlers as separate module graphs in one process, and a rotation or a logout
 * seen by one must be seen by the other.
 */
export function processWide<T>(name: string, create: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  const slot = Symbol.for(`apollo-link-token-pair/${name}`);
  return (slots[slot] ??= create());
}
