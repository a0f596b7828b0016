/**
 * Runs `task` while holding the lock `name`, so that at most one task under that name runs at a time, then
 * resolves what it resolves.
 *
 * @remarks
 * Sessions that share a store refresh under one lock, so a single-use refresh token is never spent twice
 * between them. Pass your own to span what the default cannot, such as several Node processes (a Redis or
 * file lock).
 */
export type Lock = <T>(name: string, task: () => Promise<T>) => Promise<T>;

import { AuthRequestError } from './AuthRequestError';

interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, task: () => Promise<T>): Promise<T>;
}

// A tab that holds the lock and never lets go (frozen mid-refresh) must not stall every other tab for good.
const WEB_LOCK_WAIT = 60_000;

/**
 * Creates a {@link Lock}: the Web Locks API (`navigator.locks`), which spans the tabs and workers of an origin,
 * where it exists at call time; elsewhere (Node, old browsers) a queue private to this lock.
 */
export function createLock(): Lock {
  const queues = new Map<string, Promise<unknown>>();
  return (name, task) => {
    const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
    if (locks) {
      return locks.request(name, { signal: AbortSignal.timeout?.(WEB_LOCK_WAIT) }, task).catch((error: unknown) => {
        if ((error as Error)?.name !== 'TimeoutError') throw error;
        // Transient, like a refresh that timed out: the session is kept and the refresh retried.
        throw new AuthRequestError(`Waited ${WEB_LOCK_WAIT / 1000} s for the "${name}" lock, which another tab holds.`, 'lock', undefined, error);
      });
    }
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

const byStore = new WeakMap<object, Lock>();

/**
 * The default lock of the sessions that share `store`. Without Web Locks it is one per store object, so
 * unrelated sessions never wait on each other; with them it is the origin-wide lock of that name.
 */
export function lockFor(store: object): Lock {
  let lock = byStore.get(store);
  if (!lock) byStore.set(store, (lock = createLock()));
  return lock;
}
