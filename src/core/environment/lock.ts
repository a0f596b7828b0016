/**
 * Runs `task` while holding the lock `name`, so that at most one task under that name runs at a time, and
 * resolves what it resolves.
 *
 * @remarks
 * Sessions that share a store refresh under one lock, so a single-use refresh token is never spent twice
 * between them. Pass your own to {@link shareTokenStore} to span what the default cannot, such as several Node
 * processes (a Redis or file lock). `signal` aborts when the caller stops waiting: a lock that can drop a
 * queued request should; one that cannot is still safe, as the task then returns at once without work.
 */
export type Lock = <T>(name: string, task: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, task: () => Promise<T>): Promise<T>;
}

/**
 * Creates a {@link Lock}: the Web Locks API (`navigator.locks`), which spans the tabs and workers of an origin,
 * where it exists at call time; elsewhere (Node, old browsers) a queue private to this lock.
 */
export function createLock(): Lock {
  const queues = new Map<string, Promise<unknown>>();
  return (name, task, signal) => {
    const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
    if (locks) return locks.request(name, { signal }, task);
    const run = (queues.get(name) ?? Promise.resolve()).then(task);
    const settled = run.then(
      () => {},
      () => {},
    );
    queues.set(name, settled);
    void settled.then(() => {
      if (queues.get(name) === settled) queues.delete(name);
    });
    return run;
  };
}

/** How long a shared store's lock is waited for when the app sets no `lockTimeout`, in ms. */
export const DEFAULT_LOCK_WAIT = 20_000;
