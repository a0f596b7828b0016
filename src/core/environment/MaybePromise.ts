/** A value, or a promise of it: store methods may be synchronous or asynchronous. */
export type MaybePromise<T> = T | Promise<T>;
