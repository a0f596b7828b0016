/** A set of change listeners with `subscribe`, as stores expose it, and `notify` to call them all. */
export function createListeners() {
  const listeners = new Set<() => void>();
  return Object.assign(listeners, {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(): void {
      for (const listener of listeners) listener();
    },
  });
}
